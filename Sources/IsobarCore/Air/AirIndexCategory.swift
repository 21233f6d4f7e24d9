/// One category of an air-quality scale, with its publisher's name and health message.
public struct AirIndexCategory: Sendable, Equatable, Hashable {
    /// A stable identifier (`good`, `unhealthy_for_sensitive_groups`).
    public var id: String
    /// The publisher's name for it.
    public var name: String
    /// The publisher's advice for it, in one sentence.
    public var message: String
    /// Its rank on its scale, 1 for the best.
    public var level: Int

    /// Creates a category.
    public init(id: String, name: String, message: String, level: Int) {
        self.id = id
        self.name = name
        self.message = message
        self.level = level
    }

    /// The US EPA's six categories and their health messages (AQI technical assistance document, 2024).
    public static let usAQI: [AirIndexCategory] = [
        AirIndexCategory(id: "good", name: "Good", message: "Air quality is satisfactory, and air pollution poses little or no risk.", level: 1),
        AirIndexCategory(id: "moderate", name: "Moderate",
                         message: "Air quality is acceptable; some people who are unusually sensitive to air pollution may be at risk.", level: 2),
        AirIndexCategory(id: "unhealthy_for_sensitive_groups", name: "Unhealthy for Sensitive Groups",
                         message: "Members of sensitive groups may experience health effects; the general public is less likely to be affected.", level: 3),
        AirIndexCategory(id: "unhealthy", name: "Unhealthy",
                         message: "Some members of the general public may experience health effects; sensitive groups may experience more serious effects.", level: 4),
        AirIndexCategory(id: "very_unhealthy", name: "Very Unhealthy", message: "Health alert: the risk of health effects is increased for everyone.", level: 5),
        AirIndexCategory(id: "hazardous", name: "Hazardous", message: "Health warning of emergency conditions: everyone is more likely to be affected.", level: 6),
    ]

    /// The European Environment Agency's six levels and their advice for the general population.
    public static let europeanAQI: [AirIndexCategory] = [
        AirIndexCategory(id: "good", name: "Good", message: "The air quality is good; enjoy your usual outdoor activities.", level: 1),
        AirIndexCategory(id: "fair", name: "Fair", message: "Enjoy your usual outdoor activities.", level: 2),
        AirIndexCategory(id: "moderate", name: "Moderate",
                         message: "Enjoy your usual outdoor activities; sensitive people should consider reducing intense activity outdoors if they have symptoms.", level: 3),
        AirIndexCategory(id: "poor", name: "Poor",
                         message: "Consider reducing intense activities outdoors if you have symptoms such as sore eyes, a cough or a sore throat.", level: 4),
        AirIndexCategory(id: "very_poor", name: "Very poor",
                         message: "Consider reducing physical activities outdoors, especially if you have symptoms.", level: 5),
        AirIndexCategory(id: "extremely_poor", name: "Extremely poor", message: "Reduce physical activities outdoors.", level: 6),
    ]
}
