import IsobarCore
import IsobarRender

/// One check of `isobar doctor`: what was checked, whether it works, what was found, and the fix when it does not.
struct DoctorCheck: Sendable {
    /// The outcome of a check.
    enum Status: Sendable {
        /// It works.
        case passed
        /// It does not; `fix` says what to do.
        case failed
        /// It could not be told (nothing to compare with, or a step before it failed).
        case unknown
    }

    /// What was checked, e.g. `network open-meteo`.
    var name: String
    /// The outcome.
    var status: Status
    /// What was found, in one line.
    var detail: String
    /// What to do about a failure.
    var fix: String?

    /// A check that passed.
    static func passed(_ name: String, _ detail: String) -> DoctorCheck { DoctorCheck(name: name, status: .passed, detail: detail, fix: nil) }

    /// A check that failed, with its fix.
    static func failed(_ name: String, _ detail: String, fix: String) -> DoctorCheck {
        DoctorCheck(name: name, status: .failed, detail: detail, fix: fix)
    }

    /// A check whose outcome cannot be told.
    static func unknown(_ name: String, _ detail: String) -> DoctorCheck { DoctorCheck(name: name, status: .unknown, detail: detail, fix: nil) }
}

/// The marks of `isobar doctor`'s lines: ✓ and ✗ under a UTF-8 locale, `ok` and `FAIL` otherwise.
struct DoctorMarks: Sendable {
    let passed: String
    let failed: String
    let unknown: String

    /// The marks for an environment's locale.
    static func choose(environment: [String: String]) -> DoctorMarks {
        TextCharset(environment: environment) == .utf8 ? DoctorMarks(passed: "✓", failed: "✗", unknown: "?")
            : DoctorMarks(passed: "ok", failed: "FAIL", unknown: "??")
    }

    /// The mark of a status.
    func mark(_ status: DoctorCheck.Status) -> String {
        switch status {
        case .passed: passed
        case .failed: failed
        case .unknown: unknown
        }
    }
}

extension DoctorCheck {
    /// The check's line for people: the mark, the name, what was found, and the fix when it failed.
    func text(_ marks: DoctorMarks) -> String {
        "\(marks.mark(status)) \(name): \(detail)" + (fix.map { "; fix: \($0)" } ?? "") + "\n"
    }

    /// The members of its JSON line: `passed` is null when the outcome cannot be told.
    var members: [(String, JSONOutput)] {
        let passed: JSONOutput = switch status {
        case .passed: .bool(true)
        case .failed: .bool(false)
        case .unknown: .null
        }
        return [("name", .string(name)), ("passed", passed), ("detail", .string(detail)), ("fix", .string(fix))]
    }
}
