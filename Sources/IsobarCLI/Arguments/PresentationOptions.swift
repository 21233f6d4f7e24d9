import IsobarRender

extension Presentation {
    /// The presentation the options and the environment ask for; only table output has one.
    init(_ options: CommandOptions, environment: [String: String]) {
        self.init(plain: options.format == .table && (options.plain || (environment["TERM"] == "dumb" && !options.chart)),
                  chart: options.format == .table && options.chart,
                  glyphs: ChartGlyphs.choose(ascii: options.ascii, environment: environment))
    }
}
