import Foundation
import IsobarCLI
import IsobarCore
import IsobarHTTP
import IsobarTestKit
import Synchronization
import Testing

/// A loopback origin for both providers' paths (Minsk, from the bundled cassettes) that answers conditional requests:
/// `304` with no body when the request's validator matches, else `200` with the body, the validator and `cacheControl`.
final class RevalidatingProviderOrigin: Sendable {
    struct Settings: Sendable {
        /// `ETag` or `Last-Modified`.
        var validator = "ETag"
        /// The `Cache-Control` of a `200`, if any.
        var cacheControl: String?
        /// The `Cache-Control` of a `304`, if any.
        var notModifiedCacheControl: String?
        /// A status to answer everything with instead.
        var failure: Int?
    }

    let server: LoopbackServer
    private let settings: SettingsBox

    /// The settings, shared with the server's handler.
    final class SettingsBox: Sendable {
        let value: Mutex<Settings>
        init(_ value: Settings) { self.value = Mutex(value) }
    }

    init(_ initial: Settings) throws {
        let bodies = [
            "/data/2.5/weather": try cassetteText(provider: "openweathermap", place: "minsk", pathSuffix: "/data/2.5/weather"),
            "/data/2.5/forecast": try cassetteText(provider: "openweathermap", place: "minsk", pathSuffix: "/data/2.5/forecast"),
            "/v1/forecast": try cassetteText(provider: "open-meteo", place: "minsk", pathSuffix: "/v1/forecast"),
        ]
        let settings = SettingsBox(initial)
        self.settings = settings
        server = try LoopbackServer { request in
            let now = settings.value.withLock { $0 }
            if let failure = now.failure { return .init(status: failure, "<html>busy</html>") }
            guard let body = bodies[request.path] else { return .init(status: 404, #"{"message":"not found"}"#) }
            let value = now.validator == "ETag" ? "\"\(request.path.count)-\(body.utf8.count)\"" : "Fri, 27 Nov 2026 12:00:00 GMT"
            let asked = now.validator == "ETag" ? request.headers["if-none-match"] : request.headers["if-modified-since"]
            if asked == value {
                return .init(status: 304, headers: now.notModifiedCacheControl.map { [("Cache-Control", $0)] } ?? [], body: [])
            }
            var headers = [("Content-Type", "application/json; charset=utf-8"), (now.validator, value)]
            if let cacheControl = now.cacheControl { headers.append(("Cache-Control", cacheControl)) }
            return .init(body, headers: headers)
        }
    }

    func update(_ change: (inout Settings) -> Void) { settings.value.withLock { change(&$0) } }

    /// The requests received from index `start` on.
    func requests(from start: Int) -> [LoopbackServer.Request] { Array(server.requests.dropFirst(start)) }
}

@Suite(.serialized) struct HTTPCachingCLITests {
    let curl: @Sendable () -> any Transport = { CurlTransport(userAgent: "isobar/test") }
    let cache = temporaryDirectory("http-cache")

    /// `isobar Minsk`: current conditions and forecast, so OpenWeatherMap makes both its requests.
    func compare(_ origin: RevalidatingProviderOrigin, _ extra: [String] = []) async throws -> CLIRun {
        try await runCLI(["Minsk", "--config", liveConfiguration(origin.server), "--format", "jsonl"] + extra,
                         environment: ["TEST_OWM_KEY": sentinelKey, "XDG_CACHE_HOME": cache], transport: curl)
    }

    func statuses(_ run: CLIRun) throws -> [String: String] {
        var statuses: [String: String] = [:]
        for line in try parseLines(run) where try line.string("type") == "provider_result" || line.string("type") == "provider_error" {
            statuses[try line.string("provider")] = try line.optionalString("status") ?? line.string("type")
        }
        return statuses
    }

    func temperatures(_ run: CLIRun) throws -> [Double] {
        try ["openweathermap", "open-meteo"].map { try resultLine(parseLines(run), provider: $0).member("current").double("temperature") }
    }

    @Test(arguments: [("ETag", "if-none-match"), ("Last-Modified", "if-modified-since")])
    func aValidatorIsSentBackAndA304RefreshesEveryAnswerWithoutABody(validator: String, conditional: String) async throws {
        let origin = try RevalidatingProviderOrigin(.init(validator: validator, cacheControl: "max-age=0",
                                                          notModifiedCacheControl: "max-age=600"))
        let first = try await compare(origin)
        #expect(first.code == 0, "\(first.stdout)\(first.stderr)")
        let fullBytes = origin.server.bytesSent
        #expect(origin.server.requests.allSatisfy { $0.headers[conditional] == nil })
        // max-age=0: the next run must ask again, and does so conditionally.
        let second = try await compare(origin)
        #expect(second.code == 0, "\(second.stderr)")
        let revalidations = origin.requests(from: 3)
        #expect(revalidations.count == 3)
        #expect(revalidations.allSatisfy { $0.headers[conditional] != nil })
        #expect(try statuses(second) == ["openweathermap": "ok", "open-meteo": "ok"])
        #expect(try temperatures(second) == temperatures(first))
        for provider in ["openweathermap", "open-meteo"] {
            #expect(try resultLine(parseLines(first), provider: provider).nonNullMember("revalidated") == nil)
            #expect(try resultLine(parseLines(second), provider: provider).member("revalidated").bool())
        }
        let notModifiedBytes = origin.server.bytesSent - fullBytes
        #expect(notModifiedBytes * 20 < fullBytes, "200s: \(fullBytes) bytes, 304s: \(notModifiedBytes) bytes")
        // The 304s said max-age=600: the answers are fresh again, and nobody is asked.
        let third = try await compare(origin)
        #expect(try statuses(third) == ["openweathermap": "cached", "open-meteo": "cached"])
        #expect(origin.server.requests.count == 6)
        #expect(!(try filesContain(cache, sentinelKey)))
    }

    @Test func noStoreIsNeitherCachedNorRevalidated() async throws {
        let origin = try RevalidatingProviderOrigin(.init(cacheControl: "no-store"))
        _ = try await compare(origin)
        let second = try await compare(origin)
        #expect(try statuses(second) == ["openweathermap": "ok", "open-meteo": "ok"])
        #expect(origin.server.requests.count == 6)
        #expect(origin.server.requests.allSatisfy { $0.headers["if-none-match"] == nil })
        let offline = try await compare(origin, ["--offline"])
        #expect(try statuses(offline) == ["openweathermap": "skipped", "open-meteo": "skipped"], "\(offline.stdout)")
    }

    @Test func mustRevalidateIsNeverServedStaleButOfflineShowsItLabelled() async throws {
        let origin = try RevalidatingProviderOrigin(.init(cacheControl: "max-age=0, must-revalidate"))
        _ = try await compare(origin)
        origin.update { $0.failure = 503 }
        let failing = try await compare(origin)
        #expect(failing.code == ExitCode.noneAnswered.rawValue, "\(failing.stdout)")
        #expect(try statuses(failing) == ["openweathermap": "error", "open-meteo": "error"], "\(failing.stdout)")
        let offline = try await compare(origin, ["--offline"])
        #expect(try statuses(offline) == ["openweathermap": "stale", "open-meteo": "stale"])
        #expect(try resultLine(parseLines(offline), provider: "open-meteo").string("stale_because") == "offline")
    }

    @Test func withoutMustRevalidateTheSameOutageIsCoveredStale() async throws {
        let origin = try RevalidatingProviderOrigin(.init(cacheControl: "max-age=0"))
        _ = try await compare(origin)
        origin.update { $0.failure = 503 }
        let failing = try await compare(origin)
        #expect(try statuses(failing) == ["openweathermap": "stale", "open-meteo": "stale"])
    }

    @Test func recordingAsksUnconditionallyAndKeepsTheRealBodies() async throws {
        let origin = try RevalidatingProviderOrigin(.init(cacheControl: "max-age=0"))
        _ = try await compare(origin)
        let directory = temporaryDirectory("record")
        let recorded = try await compare(origin, ["--record", directory])
        #expect(recorded.code == 0, "\(recorded.stderr)")
        #expect(origin.requests(from: 3).count == 3)
        #expect(origin.requests(from: 3).allSatisfy { $0.headers["if-none-match"] == nil })
        let cassettes = try filesText(directory)
        #expect(cassettes.contains("\"status\":200"))
        #expect(!cassettes.contains("\"status\":304"))
        let replayed = await runCLI(["Minsk", "--config", try liveConfiguration(origin.server), "--format", "jsonl",
                                     "--replay", directory])
        #expect(replayed.code == 0, "\(replayed.stdout)\(replayed.stderr)")
        #expect(try temperatures(replayed) == temperatures(recorded))
    }
}
