import Testing

extension Tag {
    /// Tests that cannot avoid real time (real processes, real Redis, real sockets, real SQLite locks): they judge outcomes,
    /// never durations.
    @Tag static var realTime: Self
}
