/// Names for people of Open-Meteo's weather models, as their `models=` values spell them.
enum OpenMeteoModels {
    /// The known models' names; others are shown as spelled.
    static let names: [String: String] = [
        "best_match": "best match",
        "ecmwf_ifs025": "ECMWF IFS", "ecmwf_ifs04": "ECMWF IFS 0.4°", "ecmwf_aifs025_single": "ECMWF AIFS",
        "gfs_seamless": "GFS", "gfs_global": "GFS global", "gfs_hrrr": "GFS HRRR",
        "icon_seamless": "ICON", "icon_global": "ICON global", "icon_eu": "ICON-EU", "icon_d2": "ICON-D2",
        "meteofrance_seamless": "Météo-France", "ukmo_seamless": "UK Met Office", "jma_seamless": "JMA", "gem_seamless": "GEM",
        "metno_seamless": "MET Nordic", "knmi_seamless": "KNMI", "dmi_seamless": "DMI", "cma_grapes_global": "CMA GRAPES",
        "bom_access_global": "BOM ACCESS",
    ]

    /// The model's name for people.
    static func name(of model: String) -> String { names[model] ?? model }
}
