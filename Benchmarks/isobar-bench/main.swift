// Prints timing figures for Isobar's hot paths. Run: swift run -c release isobar-bench [decode]
import CJansson
import FixtureReplay
import FoundationEssentials
import IsobarCore
import OpenMeteo

/// Median and 90th percentile of a timed closure over `runs` runs, in microseconds.
func measure(runs: Int, _ body: () throws -> Void) rethrows -> (median: Double, p90: Double) {
    let clock = ContinuousClock()
    var samples: [Double] = []
    samples.reserveCapacity(runs)
    for _ in 0..<runs {
        let elapsed = try clock.measure(body)
        samples.append(Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6)
    }
    samples.sort()
    return (samples[runs / 2], samples[runs * 9 / 10])
}

/// Locates config/ from the working directory or ISOBAR_DATA_DIR.
func dataDirectory() -> String {
    ProcessInfo.processInfo.environment["ISOBAR_DATA_DIR"] ?? FileManager.default.currentDirectoryPath + "/config"
}

func benchmarkDecode() throws {
    let library = try CassetteLibrary(directory: dataDirectory() + "/cassettes/open-meteo")
    guard let interaction = library.interactions.first(where: { $0.file.hasSuffix("minsk.json") }) else {
        print("decode: the Minsk Open-Meteo cassette is missing")
        return
    }
    let body = interaction.response.body
    let decoder = OpenMeteoDecoder()
    let now = Date()
    var sink = 0
    // Warm up both paths.
    for _ in 0..<50 {
        sink &+= try decoder.decode(interaction.response, now: now).hourly.count
        body.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                var error = json_error_t()
                if let root = isobar_json_parse(chars.baseAddress, chars.count, &error) { isobar_json_release(root) }
            }
        }
    }
    let runs = 2000
    let bare = measure(runs: runs) {
        body.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                var error = json_error_t()
                if let root = isobar_json_parse(chars.baseAddress, chars.count, &error) {
                    sink &+= 1
                    isobar_json_release(root)
                }
            }
        }
    }
    let decode = try measure(runs: runs) {
        let forecast = try decoder.decode(interaction.response, now: now)
        sink &+= forecast.hourly.count + forecast.daily.count
    }
    print("decode: Open-Meteo 16-day body, \(body.count) bytes, \(runs) runs each")
    print("  bare jansson parse      median \(format(bare.median)) µs   p90 \(format(bare.p90)) µs")
    print("  parse + decode to model median \(format(decode.median)) µs   p90 \(format(decode.p90)) µs")
    print("  ratio (median)          \(format(decode.median / bare.median))×")
    if sink == 42 { print("") }
}

func format(_ value: Double) -> String {
    let rounded = (value * 100).rounded() / 100
    return String(rounded)
}

let arguments = Array(CommandLine.arguments.dropFirst())
let selected = arguments.isEmpty ? ["decode"] : arguments
for name in selected {
    switch name {
    case "decode": try benchmarkDecode()
    default: print("unknown benchmark '\(name)'; known: decode")
    }
}
