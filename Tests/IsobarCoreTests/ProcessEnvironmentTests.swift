import Foundation
import IsobarCore
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
}
