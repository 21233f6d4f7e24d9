import Foundation
@testable import IsobarCore
import Testing

@Suite("Process environment: read from environ as getenv sees it")
struct ProcessEnvironmentTests {
    @Test func everyVariableIsReadWithEqualsSignsKeptInItsValue() {
        setenv("ISOBAR_TEST_ENVIRONMENT_VALUE", "a=b==c", 1)
        setenv("ISOBAR_TEST_ENVIRONMENT_EMPTY", "", 1)
        defer {
            unsetenv("ISOBAR_TEST_ENVIRONMENT_VALUE")
            unsetenv("ISOBAR_TEST_ENVIRONMENT_EMPTY")
        }
        let variables = ProcessEnvironment.current()
        #expect(variables["ISOBAR_TEST_ENVIRONMENT_VALUE"] == "a=b==c")
        #expect(variables["ISOBAR_TEST_ENVIRONMENT_EMPTY"] == "")
        #expect(variables["PATH"] == String(cString: getenv("PATH")))
        #expect(variables.count == ProcessInfo.processInfo.environment.count)
    }

    @Test func aVariableRemovedIsGone() {
        setenv("ISOBAR_TEST_ENVIRONMENT_GONE", "x", 1)
        unsetenv("ISOBAR_TEST_ENVIRONMENT_GONE")
        #expect(ProcessEnvironment.current()["ISOBAR_TEST_ENVIRONMENT_GONE"] == nil)
    }

    /// Entries as `environ` may hold them, which `setenv` cannot make: a name twice, no `=`, an empty name, bytes that are
    /// not UTF-8.
    @Test func entriesSetenvCannotMakeAreReadAsGetenvWould() {
        let entries = ["TWICE=first", "NOEQUALS", "=nameless", "TWICE=second", "EMPTY=", "BYTES=caf\u{FFFD}"]
        var pointers: [UnsafeMutablePointer<CChar>?] = entries.map { strdup($0) }
        // A lone 0xE9 (Latin-1 "é"), not UTF-8: read as the replacement character.
        let latin: [CChar] = Array("LATIN=caf".utf8CString.dropLast()) + [CChar(bitPattern: 0xE9), 0]
        pointers.append(latin.withUnsafeBufferPointer { strdup($0.baseAddress!) })
        pointers.append(nil)
        defer { for pointer in pointers { free(pointer) } }
        let variables = pointers.withUnsafeBufferPointer { ProcessEnvironment.variables(of: $0.baseAddress!) }
        #expect(variables == ["TWICE": "first", "EMPTY": "", "BYTES": "caf\u{FFFD}", "LATIN": "caf\u{FFFD}"])
    }

    @Test func anEmptyListHasNoVariables() {
        let empty: [UnsafeMutablePointer<CChar>?] = [nil]
        #expect(empty.withUnsafeBufferPointer { ProcessEnvironment.variables(of: $0.baseAddress!) }.isEmpty)
    }
}
