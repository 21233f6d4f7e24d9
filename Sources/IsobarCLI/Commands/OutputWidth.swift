import IsobarRender

extension IsobarCommandLine {
    /// The width this command's output must fit, or nil for no limit.
    var width: Int? { TerminalWidth.resolve(environment: environment, output: output) }
}
