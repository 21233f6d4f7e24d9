import Foundation
import IsobarCLI
import Testing

@Suite struct SharedStoreConfigurationTests {
    @Test func aBadSharedStoreURLIsAConfigurationErrorWithoutThePassword() async throws {
        let config = try temporaryConfiguration(#"{"shared_store": "redis://:hunter2@cache:notaport/0", "providers": []}"#)
        let run = await runCLI(["now", "Minsk", "--config", config])
        #expect(run.code == 78, "\(run.stderr)")
        #expect(run.stderr.contains("shared_store") && run.stderr.contains("port"))
        #expect(!run.stderr.contains("hunter2"))
    }

    @Test func tlsIsRefusedClearlyFromEverySource() async throws {
        let config = try temporaryConfiguration(#"{"providers": [{"type": "open-meteo"}]}"#)
        let flag = await runCLI(["now", "53.9,27.57", "--config", config, "--shared-store", "rediss://:hunter2@cache:6380/0"])
        let variable = await runCLI(["now", "53.9,27.57", "--config", config], environment: ["ISOBAR_REDIS_URL": "rediss://:hunter2@cache:6380/0"])
        for (run, source) in [(flag, "--shared-store"), (variable, "ISOBAR_REDIS_URL")] {
            #expect(run.code == 78, "\(run.stderr)")
            #expect(run.stderr.contains(source) && run.stderr.contains("TLS"), "\(run.stderr)")
            #expect(!run.stderr.contains("hunter2"))
        }
    }

    @Test(arguments: [#""expected_machines": 0"#, #""expected_machines": "two""#, #""shared_store_timeout_ms": 0"#, #""shared_store": 6379"#])
    func badSharedStoreSettingsAreRefused(_ member: String) async throws {
        let config = try temporaryConfiguration(#"{\#(member), "providers": []}"#)
        let run = await runCLI(["now", "Minsk", "--config", config])
        #expect(run.code == 78, "\(run.stderr)")
    }

    @Test func aMisspelledKeyIsNamedWithTheRightOne() async throws {
        let config = try temporaryConfiguration(#"{"shared_stor": "redis://h", "providers": []}"#)
        let run = await runCLI(["now", "Minsk", "--config", config])
        #expect(run.code == 78)
        #expect(run.stderr.contains("did you mean 'shared_store'?"), "\(run.stderr)")
    }

    @Test func cacheClearSharedNeedsASharedStore() async throws {
        let config = try temporaryConfiguration(#"{"providers": []}"#)
        let run = await runCLI(["cache", "clear", "--shared", "--config", config], environment: ["XDG_CACHE_HOME": temporaryDirectory("cache")])
        #expect(run.code == 64, "\(run.stderr)")
        #expect(run.stderr.contains("--shared needs a shared store"))
        let stats = await runCLI(["cache", "stats", "--shared", "--config", config], environment: ["XDG_CACHE_HOME": temporaryDirectory("cache")])
        #expect(stats.code == 64)
    }

    @Test func aReadableConfigurationWithThePasswordIsWarnedAbout() async throws {
        let config = try temporaryConfiguration(#"{"shared_store": "redis://:hunter2@127.0.0.1:1/0", "providers": [{"type": "open-meteo"}]}"#)
        chmod(config, 0o644)
        let run = await runCLI(["providers", "--config", config], environment: ["XDG_CACHE_HOME": temporaryDirectory("cache")])
        #expect(run.stderr.contains("holds the shared store's password and is readable by others"), "\(run.stderr)")
        #expect(!run.stderr.contains("hunter2") && !run.stdout.contains("hunter2"))
    }
}
