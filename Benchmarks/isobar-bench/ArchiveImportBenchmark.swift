import FoundationEssentials
import IsobarCore
#if canImport(Glibc)
import Glibc
#endif

/// The real binary's `isobar archive import` of `count` forecast steps (a generated export, written a place at a time so
/// that this process stays small: a spawned child's peak RSS starts from its parent's): wall time and peak RSS, whose
/// target is under 100 MiB however long the input.
func benchmarkArchiveImport(count: Int = 1_000_000) throws {
    guard let isobar = siblingIsobar(for: "archive-import") else { return }
    let scratch = "/tmp/isobar-bench-archive-import-\(getpid())"
    try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    let input = scratch + "/archive.jsonl"
    guard let file = fopen(input, "w") else {
        print("archive-import: cannot write \(input)")
        return
    }
    // Places of 1,000 hourly steps each, one issue per place, issued a year before now.
    let issued = (Date().timeIntervalSince1970 / 3_600).rounded(.down) * 3_600 - 365 * 86_400
    let issuedText = CivilTime.iso(Date(timeIntervalSince1970: issued), utcOffsetSeconds: 0)
    for place in 0..<(count + 999) / 1_000 {
        var text = ""
        for hour in 0..<min(1_000, count - place * 1_000) {
            let valid = CivilTime.iso(Date(timeIntervalSince1970: issued + Double(hour) * 3_600), utcOffsetSeconds: 0)
            text += #"{"schema":1,"type":"archived_step","provider":"open-meteo","latitude":\#(Double(place % 1_800) / 10 - 90),"#
                + #""longitude":\#(Double(place / 1_800) / 10),"issued_at":"\#(issuedText)","valid_at":"\#(valid)","lead_h":\#(hour),"#
                + #""period_h":1,"condition":"cloudy","values":{"temperature":\#(hour % 30),"wind_speed":\#(hour % 12)},"#
                + #""units":{"temperature":"°C","wind_speed":"m/s"}}"# + "\n"
        }
        fputs(text, file)
    }
    fclose(file)
    var info = stat()
    stat(input, &info)
    let environment = ["HOME=\(scratch)", "XDG_DATA_HOME=\(scratch)/data", "XDG_CACHE_HOME=\(scratch)/cache", "PATH=/usr/bin:/bin"]
    switch runRedirected(isobar, ["archive", "import", input, "--json"], environment: environment, stdout: scratch + "/out.jsonl",
                         stderr: scratch + "/err.txt") {
    case .failure(let error):
        print("archive-import: \(error)")
    case .success(let child):
        let said = String(decoding: FileManager.default.contents(atPath: scratch + (child.status == 0 ? "/out.jsonl" : "/err.txt")) ?? Data(),
                          as: UTF8.self)
        print("archive-import: isobar archive import of \(count) steps (\(format(Double(info.st_size) / 1_048_576)) MiB of JSON lines)")
        print("  exit \(child.status), wall \(format(child.seconds)) s, CPU \(format(child.cpuSeconds)) s, peak RSS "
            + "\(format(Double(child.maxRSSKiB) / 1024)) MiB (target < 100 MiB)")
        print("  " + said.split(separator: "\n").prefix(3).joined(separator: "\n  "))
    }
}
