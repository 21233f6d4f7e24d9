import Exec
import Foundation
import IsobarCore
import Testing

/// Programs that misbehave in every way the protocol forbids: each is that provider's error with a clear reason.
@Suite(.serialized) struct BadProgramTests {
    @Test func aProgramThatHangsIsStoppedAtTheDeadlineWithItsChildren() async throws {
        let pidFile = temporaryDirectory("pid") + "/child"
        let program = script(plan: "sleep 300 & echo $! > \(pidFile); wait")
        let provider = try await makeProvider(shell(program))
        let error = try #require(await failure(of: provider, deadlineSeconds: 1))
        #expect(error.code == .timeout)
        #expect(error.reason == .deadline)
        #expect(error.message.contains("did not answer before the deadline"))
        let child = try #require(pid(in: pidFile))
        #expect(!(await isRunning(child)), "the program's child outlived the call")
    }

    @Test func aProgramThatIgnoresSIGTERMIsKilled() async throws {
        let program = script(plan: "trap '' TERM; while :; do sleep 1; done")
        let provider = try await makeProvider(shell(program))
        let error = try #require(await failure(of: provider, deadlineSeconds: 0.5))
        #expect(error.code == .timeout)
    }

    @Test func invalidJSONIsABadResponse() async throws {
        let provider = try await makeProvider(shell(script(plan: "echo 'this is not JSON {'")))
        let error = try #require(await failure(of: provider))
        #expect(error.code == .badResponse(path: "$"))
        #expect(error.message.contains("invalid JSON on stdout"))
    }

    @Test func nothingOnStdoutIsABadResponse() async throws {
        let provider = try await makeProvider(shell(script(plan: "true")))
        let error = try #require(await failure(of: provider))
        #expect(error.message.contains("no answer on stdout"))
    }

    @Test func hundredMegabytesOfOutputAreCutOffAtTheCap() async throws {
        let provider = try await makeProvider(shell(script(plan: "head -c 104857600 /dev/zero | tr '\\\\0' 'x'")))
        let error = try #require(await failure(of: provider, deadlineSeconds: 30))
        #expect(error.code == .badResponse(path: "$"))
        #expect(error.reason == .bodyTooLarge)
        #expect(error.message.contains("more than 8 MiB"))
    }

    @Test func aCrashIsUnavailableNamingTheSignalAndTheEndOfItsLog() async throws {
        let provider = try await makeProvider(shell(script(plan: "echo 'about to fail' >&2; kill -SEGV $$")))
        let error = try #require(await failure(of: provider))
        #expect(error.code == .unavailable)
        #expect(error.message.contains("crashed (signal 11, SIGSEGV)"))
        #expect(error.message.contains("about to fail"))
    }

    @Test func aNonZeroExitWithoutJSONIsUnavailable() async throws {
        let provider = try await makeProvider(shell(script(plan: "echo 'Traceback: boom' >&2; exit 1")))
        let error = try #require(await failure(of: provider))
        #expect(error.code == .unavailable)
        #expect(error.message.contains("exited with status 1 without an answer"))
        #expect(error.message.contains("Traceback: boom"))
    }

    @Test func aWrongProtocolVersionIsABadResponseAtItsPath() async throws {
        let provider = try await makeProvider(shell(script(plan: #"echo '{"protocol":2,"ok":true,"requests":[]}'"#)))
        let error = try #require(await failure(of: provider))
        #expect(error.code == .badResponse(path: "$.protocol"))
        #expect(error.message.contains("speaks protocol 2; this build speaks protocol 1"))
    }

    @Test func aMissingProtocolVersionIsABadResponse() async throws {
        let provider = try await makeProvider(shell(script(plan: #"echo '{"ok":true,"requests":[]}'"#)))
        let error = try #require(await failure(of: provider))
        #expect(error.code == .badResponse(path: "$.protocol"))
    }

    @Test(arguments: [
        (#""current":{"time":"2026-11-28T09:00:00Z","temperature_c":999}"#, "$.report.current.temperature_c", "999 is outside -95…65"),
        (#""current":{"time":"2026-11-28T09:00:00Z","humidity_percent":-4}"#, "$.report.current.humidity_percent", "outside 0…100"),
        (#""current":{"time":"2026-11-28T09:00:00Z","temperature_f":40}"#, "$.report.current.temperature_f", "not a field of the protocol"),
        (#""current":{"time":"yesterday"}"#, "$.report.current.time", "ISO-8601"),
        (#""hourly":[{"time":"2026-11-28T10:00:00Z"},{"time":"2026-11-28T09:00:00Z"}]"#, "$.report.hourly[1].time", "time order"),
        (#""current":{"time":"2026-11-28T09:00:00Z","condition":"drizzly"}"#, "$.report.current.condition", "not a condition"),
    ])
    func reportsAreValidatedNamingTheJSONPath(fields: String, path: String, reason: String) async throws {
        let report = #"{"protocol":1,"ok":true,"report":{"units":"si","# + fields + "}}"
        let provider = try await makeProvider(shell(script(decode: "echo '\(report)'")))
        let error = try #require(await failure(of: provider))
        #expect(error.code == .badResponse(path: path))
        #expect(error.message.contains(path))
        #expect(error.message.contains(reason))
    }

    @Test func unitsOtherThanSIAreRefused() async throws {
        let report = #"{"protocol":1,"ok":true,"report":{"units":"us","current":{"time":"2026-11-28T09:00:00Z"}}}"#
        let provider = try await makeProvider(shell(script(decode: "echo '\(report)'")))
        let error = try #require(await failure(of: provider))
        #expect(error.code == .badResponse(path: "$.report.units"))
    }

    @Test func anEchoedKeyNeverSurfaces() async throws {
        let key = "s3cr3t-key-123"
        let describe = #"{"protocol":1,"ok":true,"describe":{"id":"k","name":"Keyed","kinds":["current"],"coverage":"global","key":{"variable":"KEYED_KEY","query_names":["appid"]}}}"#
        let echo = #"printf '%s' "$input" | sed -n 's/.*"key":"\([^"]*\)".*/\1/p' > key.txt; k=$(cat key.txt); rm -f key.txt; "#
        let plan = echo + #"echo "my key is $k" >&2; echo "{\"protocol\":1,\"ok\":false,\"error\":{\"code\":\"unauthorized\",\"message\":\"key $k refused\"}}""#
        let logs = LogLines()
        let provider = try await makeProvider(shell(script(describe: "echo '\(describe)'", plan: "cd \"$(dirname \"$0\")\"; " + plan)),
                                              apiKey: key, log: logs.append)
        let error = try #require(await failure(of: provider))
        #expect(error.code == .unauthorized)
        #expect(error.message.contains("key REDACTED refused"))
        #expect(!error.message.contains(key))
        #expect(logs.lines.contains { $0.contains("my key is REDACTED") })
        #expect(!logs.lines.contains { $0.contains(key) })
    }

    @Test func aReportRepeatingTheKeyIsRefused() async throws {
        let key = "s3cr3t-key-456"
        let describe = #"{"protocol":1,"ok":true,"describe":{"id":"k","name":"Keyed","kinds":["current"],"coverage":"global","key":{"variable":"KEYED_KEY"}}}"#
        let report = #"{"protocol":1,"ok":true,"report":{"units":"si","timezone":"\#(key)","current":{"time":"2026-11-28T09:00:00Z"}}}"#
        let provider = try await makeProvider(shell(script(describe: "echo '\(describe)'", decode: "echo '\(report)'")), apiKey: key)
        let error = try #require(await failure(of: provider))
        #expect(error.code == .badResponse(path: "$.report"))
        #expect(error.message.contains("repeats its API key"))
        #expect(!error.message.contains(key))
    }

    @Test func aKeyPlannedIntoThePathIsRefused() async throws {
        let key = "s3cr3t-key-789"
        let describe = #"{"protocol":1,"ok":true,"describe":{"id":"k","name":"Keyed","kinds":["current"],"coverage":"global","key":{"variable":"KEYED_KEY"}}}"#
        let plan = #"echo '{"protocol":1,"ok":true,"requests":[{"url":"https://weather.example/\#(key)/now"}]}'"#
        let stub = StubTransport()
        let provider = try await makeProvider(shell(script(describe: "echo '\(describe)'", plan: plan)), apiKey: key)
        let error = try #require(await failure(of: provider, transport: stub))
        #expect(error.code == .badRequest)
        #expect(!error.message.contains(key))
        #expect(stub.requests.isEmpty)
    }

    @Test func aProgramWithoutItsDeclaredKeyIsNotConfigured() async throws {
        let describe = #"{"protocol":1,"ok":true,"describe":{"id":"k","name":"Keyed","kinds":["current"],"coverage":"global","key":{"variable":"KEYED_KEY"}}}"#
        let provider = try await makeProvider(shell(script(describe: "echo '\(describe)'")))
        let error = try #require(await failure(of: provider))
        #expect(error.code == .notConfigured)
        #expect(error.message.contains("KEYED_KEY"))
    }

    @Test func theVariableAProgramDeclaresIsNeverReadByItself() async throws {
        let seen = temporaryDirectory("seen") + "/input"
        let describe = #"{"protocol":1,"ok":true,"describe":{"id":"k","name":"Keyed","kinds":["current"],"coverage":"global","key":{"variable":"KEYED_KEY"}}}"#
        let plan = "printf '%s' \"$input\" > \(seen); echo '{\"protocol\":1,\"ok\":true,\"requests\":[{\"url\":\"https://weather.example/now\"}]}'"
        let provider = try await makeProvider(shell(script(describe: "echo '\(describe)'", plan: plan)),
                                              environment: programEnvironment(["KEYED_KEY": "only-if-granted"]))
        let error = try #require(await failure(of: provider))
        #expect(error.code == .notConfigured)
        #expect(error.message == #"Keyed needs an API key: wants KEYED_KEY; set "api_key_env" in its entry to grant it"#)
        #expect(!FileManager.default.fileExists(atPath: seen), "the program was asked to plan without its key")
    }

    @Test func theKeyReachesOnlyAProgramThatDeclaresOne() async throws {
        let seen = temporaryDirectory("seen") + "/input"
        let provider = try await makeProvider(shell(script(plan: "printf '%s' \"$input\" > \(seen); echo '{\"protocol\":1,\"ok\":true,\"requests\":[{\"url\":\"https://weather.example/now\"}]}'")),
                                              apiKey: "undeclared-key", environment: programEnvironment(["SOME_API_KEY": "from-env"]))
        #expect(await failure(of: provider) == nil)
        let input = try String(contentsOfFile: seen, encoding: .utf8)
        #expect(!input.contains("undeclared-key"))
        #expect(!input.contains("\"key\""))
    }

    @Test func theProgramsEnvironmentHoldsNoSecrets() async throws {
        let seen = temporaryDirectory("seen") + "/env"
        let provider = try await makeProvider(shell(script(plan: "env > \(seen); echo '{\"protocol\":1,\"ok\":true,\"requests\":[{\"url\":\"https://weather.example/now\"}]}'")),
                                              environment: programEnvironment(["OPENWEATHERMAP_API_KEY": "owm-secret"]))
        #expect(await failure(of: provider) == nil)
        let environment = try String(contentsOfFile: seen, encoding: .utf8)
        #expect(!environment.contains("owm-secret"))
        #expect(environment.contains("PATH="))
    }

    @Test func errorsAsDataKeepTheirCodeAndRetryTime() async throws {
        let answer = #"echo '{"protocol":1,"ok":false,"error":{"code":"rate_limited","message":"slow down","retry_after_s":7}}'"#
        let provider = try await makeProvider(shell(script(plan: answer)))
        let error = try #require(await failure(of: provider))
        #expect(error.code == .rateLimited(retryAfterSeconds: 7))
        #expect(error.message == "test: slow down")
    }

    @Test func anUnknownErrorCodeIsABadResponse() async throws {
        let answer = #"echo '{"protocol":1,"ok":false,"error":{"code":"oops","message":"?"}}'"#
        let provider = try await makeProvider(shell(script(plan: answer)))
        let error = try #require(await failure(of: provider))
        #expect(error.code == .badResponse(path: "$.error.code"))
    }

    @Test func moreThanThreeRoundsAreRefused() async throws {
        let again = #"echo '{"protocol":1,"ok":true,"requests":[{"url":"https://weather.example/again"}]}'"#
        let stub = StubTransport()
        let provider = try await makeProvider(shell(script(decode: again)))
        let error = try #require(await failure(of: provider, transport: stub))
        #expect(error.message.contains("more than 3 rounds"))
        #expect(stub.requests.count == 3)
    }

    @Test func aProgramThatCannotDescribeItselfFailsEveryFetchButBuilds() async throws {
        let provider = try await makeProvider(shell(script(describe: "echo '{\"protocol\":1,\"ok\":true,\"describe\":{\"id\":\"x\"}}'")))
        let error = try #require(await failure(of: provider))
        #expect(error.code == .badResponse(path: "$.describe.name"))
        #expect(error.message.contains("description is wrong"))
    }

    @Test func aMissingProgramIsNotConfigured() async throws {
        let provider = try await makeProvider(["no-such-program-anywhere"])
        let error = try #require(await failure(of: provider))
        #expect(error.code == .notConfigured)
        #expect(error.message.contains("cannot find the program 'no-such-program-anywhere' on PATH"))
    }

    @Test func aPlaceOutsideTheCoverageIsUnsupportedWithoutRunningThePlan() async throws {
        let describe = #"{"protocol":1,"ok":true,"describe":{"id":"us","name":"US only","kinds":["hourly"],"coverage":{"south":17,"west":-180,"north":72,"east":-64}}}"#
        let provider = try await makeProvider(shell(script(describe: "echo '\(describe)'", plan: "exit 9")))
        let error = try #require(await failure(of: provider))
        #expect(error.code == .unsupported)
    }
}

/// What a program inherits from the host.
@Suite struct InheritanceTests {
    @Test func theProgramInheritsNoDescriptorBesidesItsPipes() async throws {
        // A file this process holds open without close-on-exec must not be open in the program.
        let held = temporaryDirectory("held") + "/held.txt"
        let descriptor = open(held, O_CREAT | O_WRONLY, 0o600)
        #expect(descriptor >= 3)
        defer { close(descriptor) }
        let seen = temporaryDirectory("seen") + "/fds"
        let provider = try await makeProvider(shell(script(plan: "ls /proc/$$/fd > \(seen); echo '{\"protocol\":1,\"ok\":true,\"requests\":[{\"url\":\"https://weather.example/now\"}]}'")))
        #expect(await failure(of: provider) == nil)
        let descriptors = try String(contentsOfFile: seen, encoding: .utf8).split(separator: "\n").compactMap { Int($0) }
        #expect(!descriptors.contains(Int(descriptor)), "inherited \(descriptors)")
    }
}
