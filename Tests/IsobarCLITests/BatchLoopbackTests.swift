import Foundation
import IsobarCLI
import IsobarCore
import IsobarHTTP
import IsobarTestKit
import Synchronization
import Testing

/// A batch input of good places with bad lines mixed in, and what each bad line must be reported as.
struct MixedInput {
    var text = ""
    var good: Set<Int> = []
    var bad: [Int: String] = [:]
    var ids: [Int: String] = [:]

    /// `count` places, distinct coordinates in three spellings; every 37th line bad in one of five ways, and some blank lines.
    init(places count: Int) {
        var number = 0
        var placed = 0
        var index = 0
        while placed < count {
            index += 1
            number += 1
            let latitude = 40 + Double(placed / 40) * 0.25
            let longitude = -10 + Double(placed % 40) * 0.25
            if index % 97 == 0 {
                text += "\n"
                continue
            }
            if index % 37 == 0 {
                let kinds: [(String, String)] = [
                    ("Xyzzy Qwertyville", "unknown_place"), ("95,10", "bad_coordinates"), ("{\"id\": \"x\", \"place\": ", "invalid_json"),
                    (String(repeating: "A", count: 5000), "line_too_long"), ("{\"id\": \"y\"}", "bad_input"),
                ]
                let (line, code) = kinds[(index / 37) % kinds.count]
                text += line + "\n"
                bad[number] = code
                continue
            }
            switch placed % 3 {
            case 0: text += "\(latitude),\(longitude)\n"
            case 1:
                text += "{\"id\": \"p\(placed)\", \"latitude\": \(latitude), \"longitude\": \(longitude)}\n"
                ids[number] = "p\(placed)"
            default:
                text += "{\"id\": \"q\(placed)\", \"place\": \"\(latitude),\(longitude)\"}\n"
                ids[number] = "q\(placed)"
            }
            good.insert(number)
            placed += 1
        }
    }

    /// Writes the input to a new file and returns its path.
    func file() throws -> String {
        let path = temporaryDirectory("batch-input") + "/places.txt"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}

/// When each request reached the server and how long the server held it, per provider.
final class ServerLog: Sendable {
    private let entries = Mutex<[String: [(start: Double, end: Double)]]>([:])

    /// Notes a request of `provider` held for `seconds` from now.
    func note(_ provider: String, seconds: Double) {
        let now = ProcessInfo.processInfo.systemUptime
        entries.withLock { $0[provider, default: []].append((now, now + seconds)) }
    }

    /// The most requests of `provider` held at the same moment.
    func peak(_ provider: String) -> Int {
        let spans = entries.withLock { $0[provider] ?? [] }
        let events = (spans.map { ($0.start, 1) } + spans.map { ($0.end, -1) }).sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
        var current = 0
        var peak = 0
        for (_, change) in events {
            current += change
            peak = max(peak, current)
        }
        return peak
    }

    /// The most requests of `provider` that arrived within any `seconds`.
    func busiest(_ provider: String, seconds: Double) -> Int {
        let times = entries.withLock { $0[provider] ?? [] }.map(\.start).sorted()
        var best = 0
        var first = 0
        for last in times.indices {
            while times[last] - times[first] >= seconds { first += 1 }
            best = max(best, last - first + 1)
        }
        return best
    }
}

/// An Open-Meteo answer cut to its first hours and day, so that a thousand of them cost little to decode and cache.
func shortened(_ body: String) throws -> String {
    var root = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
    for (section, keep) in [("hourly", 3), ("daily", 1)] {
        guard var values = root[section] as? [String: Any] else { continue }
        for (key, value) in values { if let array = value as? [Any] { values[key] = Array(array.prefix(keep)) } }
        root[section] = values
    }
    return String(decoding: try JSONSerialization.data(withJSONObject: root), as: UTF8.self)
}

@Suite(.serialized) struct BatchLoopbackTests {
    @Test func aThousandPlacesWithBadLinesAreEachAnsweredOnceWithinEveryLimit() async throws {
        let weather = try cassetteText(provider: "openweathermap", place: "minsk", pathSuffix: "/data/2.5/weather")
        let meteo = try shortened(try cassetteText(provider: "open-meteo", place: "minsk", pathSuffix: "/v1/forecast"))
        let log = ServerLog()
        let counter = Mutex<[String: Int]>([:])
        let server = try LoopbackServer { request in
            let provider = request.path == "/v1/forecast" ? "open-meteo" : "openweathermap"
            let count = counter.withLock { counts -> Int in
                counts[provider, default: 0] += 1
                return counts[provider]!
            }
            // Random latency up to 8 ms; a few 503s (retried) and a few 429s with a one-second Retry-After (waited out).
            var generator = SeededGenerator(seed: UInt64(count) &* 7919 &+ UInt64(provider.count))
            let delay = Double(generator.next() % 9) / 1000
            log.note(provider, seconds: delay)
            if count % 151 == 0 { return .init(status: 503, #"{"error": true, "reason": "busy"}"#, delaySeconds: delay) }
            if count == 300 || count == 700 {
                return .init(status: 429, #"{"cod": 429, "message": "slow down"}"#,
                             headers: [("Content-Type", "application/json"), ("Retry-After", "1")], delaySeconds: delay)
            }
            return .init(provider == "open-meteo" ? meteo : weather, delaySeconds: delay)
        }
        defer { server.stop() }
        let config = try temporaryConfiguration("""
        {"providers": [
          {"id": "openweathermap", "type": "openweathermap", "api_key_env": "TEST_OWM_KEY", "base_url": "\(server.baseURL)",
           "rate_limits": [{"limit": 250, "per_s": 1}]},
          {"id": "open-meteo", "type": "open-meteo", "base_url": "\(server.baseURL)", "max_concurrent_calls": 3,
           "rate_limits": [{"limit": 100000, "per_s": 60}]}]}
        """)
        let input = MixedInput(places: 1000)
        let run = await runCLI(["batch", try input.file(), "--config", config, "--jobs", "12"],
                               environment: ["TEST_OWM_KEY": sentinelKey], transport: { CurlTransport(userAgent: "isobar/test") })
        let lines = try parseLines(run)
        #expect(run.code == 2, "\(run.stderr)")

        var consensus: [Int: Int] = [:]
        var errors: [Int: String] = [:]
        for line in lines {
            let type = try line.string("type")
            #expect(try line.int("schema") == 1)
            if type == "consensus" { consensus[try line.int("input_line"), default: 0] += 1 }
            if type == "input_error" { errors[try line.int("input_line")] = try line.member("error").string("code") }
            if ["consensus", "provider_result", "provider_error"].contains(type) {
                let number = try line.int("input_line")
                #expect(try line.optionalString("id") == input.ids[number], "line \(number)")
            }
            if type == "provider_error" { Issue.record("a provider failed: \(line)") }
        }
        #expect(Set(consensus.keys) == input.good)
        #expect(consensus.values.allSatisfy { $0 == 1 })
        #expect(errors == input.bad)

        let summary = try #require(lines.last)
        #expect(try summary.string("type") == "summary")
        #expect(try summary.int("places") == input.good.count)
        #expect(try summary.int("ok") == input.good.count)
        #expect(try summary.int("ok") + summary.int("partial") + summary.int("failed") == summary.int("places"))
        #expect(try summary.int("input_errors") == input.bad.count)
        let sent = try summary.int("requests")
        // Every attempt counts, one that never reached the server (a connection that failed and was retried) too.
        #expect(sent >= server.requests.count && sent <= server.requests.count + 10, "\(sent) sent, \(server.requests.count) received")
        #expect(try summary.member("interrupted").bool() == false)
        #expect(server.requests.count >= 2 * input.good.count + 4)

        #expect(log.busiest("openweathermap", seconds: 1) <= 250)
        #expect(log.peak("open-meteo") <= 3)
        #expect(log.peak("openweathermap") <= 8)
        #expect(!run.stdout.contains(sentinelKey) && !run.stderr.contains(sentinelKey))
    }
}
