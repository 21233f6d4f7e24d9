import IsobarRender

extension Presentation {
    /// The presentation the options and the environment ask for; only table output has one.
    init(_ options: CommandOptions, environment: [String: String]) {
        self = RendererFactory.presentation(options.format, plain: options.plain, chart: options.chart, ascii: options.ascii, environment: environment)
    }
}
