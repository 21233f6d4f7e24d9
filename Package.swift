// swift-tools-version: 6.2
import PackageDescription

/// Settings every Swift target shares: Swift 6 language mode, warnings are errors. A release build reaches the metadata of
/// a generic type such as `[String: Place]` through an accessor that passes the witness tables it needs, not by decoding the
/// type's mangled name at run time: decoding checks `String: Hashable` by scanning every protocol conformance record of the
/// binary, once for each new pair, which was a third of the instructions of a warm cache hit (12.5 M in all, 8.9 M after).
/// Each function is compiled into a section of its own, so that the link can place the ones short commands run together
/// (`startupOrder` below); otherwise a file's internal functions share one section, and placing one places them all.
let strict: [SwiftSetting] = [.treatAllWarnings(as: .error),
                              .unsafeFlags(["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors",
                                            "-Xfrontend", "-function-sections"], .when(configuration: .release))]

/// The release binary on Linux links the Swift runtime, standard library, concurrency, Dispatch and Foundation statically: no
/// symbol of theirs is looked up as a process starts, their calls are direct, and their thread-local storage is read
/// without a lookup (the concurrency runtime reads it at every task switch). It needs no Swift installation to run. The names
/// of Foundation's two support archives are the toolchain's own (Swift 6 on Linux).
/// Linked by the toolchain's lld: gold repeats glibc's link-time warning about `mktemp`, which a file-writing function of
/// Foundation's static library refers to, on every release build. Its relative relocations are packed (`DT_RELR`, glibc 2.36
/// and later): the loader applies them from a few KB instead of 1 MB, and fewer pages are touched at start.
/// `--no-export-dynamic` undoes the `-export-dynamic` that `-static-stdlib` brings: nothing looks Isobar's symbols up by name,
/// and exporting its modules' 9,300 public symbols made every lookup the loader does, and every `dladdr`, search them.
let staticRuntime: [LinkerSetting] = [
    .unsafeFlags(["-static-stdlib", "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                  "-Xlinker", "-l_FoundationCShims", "-Xlinker", "-l_FoundationCollections", "-Xlinker", "--no-export-dynamic"],
                 .when(platforms: [.linux], configuration: .release)),
]

/// SQLite, jansson and hiredis: linked from Debian's shared libraries in a debug build (the tests), and in a release build on
/// Linux from the static archives the same -dev packages install. A shared SQLite cost every command 1,500 symbol lookups
/// as it started (its calls to its own functions go through the loader), and each shared library is one more file to map.
/// The modulemaps name no library, so each target that uses one says here how it is linked.
func cLibrary(_ name: String) -> [LinkerSetting] {
    [.linkedLibrary(name, .when(configuration: .debug)),
     .linkedLibrary(name, .when(platforms: [.macOS], configuration: .release)),
     .unsafeFlags(["-Xlinker", "-l:lib\(name).a"], .when(platforms: [.linux], configuration: .release))]
}

/// This package's folder, for the flags below that name a file in it (the linker runs elsewhere).
let packageDirectory = String(#filePath.dropLast("/Package.swift".count))

/// The release `isobar` places the functions short commands run together at the start of its code, in the order
/// `Sources/isobar/startup-order.txt` lists them (written by `scripts/make-startup-order.sh`): a cache hit then faults in 73–93
/// pages of code instead of 157 (see docs/benchmarks.md). A name the binary no longer has is skipped, so a stale list only orders less.
let startupOrder: [LinkerSetting] = [
    .unsafeFlags(["-Xlinker", "--symbol-ordering-file=\(packageDirectory)/Sources/isobar/startup-order.txt", "-Xlinker", "--no-warn-symbol-ordering"],
                 .when(platforms: [.linux], configuration: .release)),
]

/// The release `isobar` has the loader bind every library function it imports as it starts (`-z now`), not each at its
/// first call: a cache hit calls most of them, and each lazy first call costs a trip through the loader's resolver (6–9 %
/// of a cache hit's wall time). The GOT is then read-only for the whole run. The hello-world (`isobar-hello`) calls few and
/// keeps lazy binding, which is faster for it (`-z now` cost it 2–3 %).
let bindNow: [LinkerSetting] = [
    .unsafeFlags(["-Xlinker", "-z", "-Xlinker", "now"], .when(platforms: [.linux], configuration: .release)),
]

/// For the library targets: a nonisolated async function runs where its caller runs, so a call down the engine's layers
/// is a plain call, not a hop to the global executor and back (entry points that must leave the caller say `@concurrent`).
let inheriting: [SwiftSetting] = strict + [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]

/// The compiled providers, each in Providers/<name>, with the modules it uses besides IsobarCore: one line here makes both its
/// target and the command line's dependency on it (the registry, Sources/IsobarCLI/Config/ProviderRegistry.swift, lists its factory);
/// `exclude` names what in its directory is not source (a skeleton's recorded fixture).
let providerTargets: [(name: String, uses: [String], exclude: [String])] = [
    ("OpenWeatherMap", uses: [], exclude: []),
    ("OpenMeteo", uses: [], exclude: []),
    ("METNorway", uses: [], exclude: []),
    ("METAR", uses: ["IsobarPlaces"], exclude: []),
    ("NWSAlerts", uses: [], exclude: []),
    ("METAlerts", uses: [], exclude: []),
    ("MeteoAlarm", uses: ["IsobarPlaces"], exclude: []),
    ("FixtureReplay", uses: [], exclude: []),
    ("Exec", uses: [], exclude: []),
]

let package = Package(
    name: "Isobar",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "isobar", targets: ["isobar"]),
        .library(name: "IsobarCore", targets: ["IsobarCore"]),
        .library(name: "IsobarTestKit", targets: ["IsobarTestKit"]),
        .library(name: "IsobarConformance", targets: ["IsobarConformance"]),
    ],
    targets: [
        .systemLibrary(
            name: "CJansson", path: "Sources/CJansson",
            providers: [.apt(["libjansson-dev"])]),

        // libcurl, loaded with dlopen("libcurl.so.4") on first use instead of linked: headers from apt libcurl4-openssl-dev
        // (scripts/install-deps.sh), the library itself from libcurl4 at run time.
        .target(name: "CCurl", path: "Sources/CCurl"),

        .systemLibrary(
            name: "CSQLite", path: "Sources/CSQLite",
            providers: [.apt(["libsqlite3-dev"])]),

        // hiredis without pkg-config, whose flags SwiftPM refuses (-D_FILE_OFFSET_BITS): the header from /usr/include/hiredis.
        .systemLibrary(name: "CHiredis", path: "Sources/CHiredis", providers: [.apt(["libhiredis-dev"])]),

        .target(name: "IsobarCore", dependencies: ["CJansson"], swiftSettings: inheriting, linkerSettings: cLibrary("jansson")),
        .target(name: "IsobarStore", dependencies: ["IsobarCore", "IsobarEngine", "IsobarConsensus", "CSQLite"], swiftSettings: inheriting,
                linkerSettings: cLibrary("sqlite3")),
        .target(name: "IsobarRedis", dependencies: ["IsobarCore", "IsobarEngine", "CHiredis"], swiftSettings: strict, linkerSettings: cLibrary("hiredis")),
        .target(name: "IsobarHTTP", dependencies: ["IsobarCore", "CCurl"], swiftSettings: inheriting),
        // The engine asks through `ConsensusStrategy` (declared in Core); it never imports the merge itself.
        .target(name: "IsobarEngine", dependencies: ["IsobarCore"], swiftSettings: inheriting),
        // The merge, learned weights, the skill record and verification: pure functions over Core's model.
        .target(name: "IsobarConsensus", dependencies: ["IsobarCore"], swiftSettings: inheriting),
        .target(name: "IsobarPlaces", dependencies: ["IsobarCore"], swiftSettings: inheriting),
        // Tables, sentences, charts, CSV and JSON lines: report values in, bytes out; never the engine, storage or the network.
        .target(name: "IsobarRender", dependencies: ["IsobarCore", "IsobarConsensus", "IsobarPlaces"], swiftSettings: inheriting),

        // The compiled providers are added after this list, from `providerTargets`.
        .target(
            name: "IsobarCLI",
            dependencies: ["IsobarCore", "IsobarHTTP", "IsobarEngine", "IsobarConsensus", "IsobarPlaces", "IsobarRender", "IsobarStore", "IsobarRedis", "IsobarConformance"]
                + providerTargets.map { .byName(name: $0.name) },
            swiftSettings: inheriting),
        // A release build on Linux carries the Swift runtime and libraries inside the binary (see `staticRuntime`).
        .executableTarget(name: "isobar", dependencies: ["IsobarCLI", "IsobarCore", "IsobarHTTP", "Exec"], exclude: ["startup-order.txt"],
                         swiftSettings: strict, linkerSettings: staticRuntime + startupOrder + bindNow),
        // The provider conformance rules: run by `isobar providers check` and by the tests, so not part of the test kit.
        .target(name: "IsobarConformance", dependencies: ["IsobarCore"], swiftSettings: strict),
        .target(name: "IsobarTestKit", dependencies: ["IsobarCore", "IsobarConformance"], swiftSettings: strict),
        // The consensus simulation harness: truth and providers with error models, run end to end (tests and the benchmark).
        .target(
            name: "IsobarSimulation",
            dependencies: ["IsobarCore", "IsobarHTTP", "IsobarEngine", "IsobarConsensus", "IsobarStore", "IsobarRender", "IsobarCLI", "IsobarTestKit", "OpenMeteo"],
            swiftSettings: strict),

        .executableTarget(
            name: "isobar-bench",
            dependencies: [
                "IsobarCore", "IsobarHTTP", "IsobarEngine", "IsobarPlaces", "IsobarTestKit", "OpenMeteo", "FixtureReplay", "CJansson", "Exec",
                "IsobarRedis", "IsobarStore", "IsobarSimulation", "IsobarConsensus",
            ],
            path: "Benchmarks/isobar-bench", swiftSettings: strict),
        // The hello-world the start-up benchmark compares short commands with: FoundationEssentials, linked as `isobar` is.
        .executableTarget(
            name: "isobar-hello", path: "Benchmarks/hello", swiftSettings: strict,
            linkerSettings: staticRuntime + [.unsafeFlags(["-Xlinker", "-lswiftSynchronization"], .when(platforms: [.linux], configuration: .release))]),

        // Fuzzing (scripts/fuzz.sh): the targets, and one executable that replays inputs or, built with -D ISOBAR_FUZZ
        // and -sanitize=fuzzer, runs libFuzzer (whose entry point is declared by CFuzzerDriver).
        .systemLibrary(name: "CFuzzerDriver", path: "Sources/CFuzzerDriver"),
        .target(
            name: "IsobarFuzzTargets",
            dependencies: ["IsobarCore", "IsobarCLI", "IsobarPlaces", "OpenWeatherMap", "OpenMeteo", "METNorway", "Exec", "FixtureReplay"],
            path: "Fuzz/IsobarFuzzTargets", swiftSettings: strict),
        .executableTarget(name: "isobar-fuzz", dependencies: ["IsobarFuzzTargets", "CFuzzerDriver"], path: "Fuzz/isobar-fuzz", swiftSettings: strict),

        .testTarget(name: "IsobarPlacesTests", dependencies: ["IsobarPlaces", "IsobarTestKit"], swiftSettings: strict),
        .testTarget(name: "IsobarStoreTests", dependencies: ["IsobarStore", "IsobarEngine", "IsobarConsensus", "IsobarTestKit"], swiftSettings: strict),
        .testTarget(name: "IsobarRedisTests", dependencies: ["IsobarRedis", "IsobarEngine", "IsobarTestKit"], swiftSettings: strict),
        .testTarget(name: "IsobarCoreTests", dependencies: ["IsobarCore", "IsobarTestKit"], swiftSettings: strict),
        .testTarget(
            name: "ProviderTests",
            dependencies: ["IsobarCore", "IsobarConformance", "IsobarTestKit", "OpenWeatherMap", "OpenMeteo", "METNorway", "FixtureReplay"],
            swiftSettings: strict),
        .testTarget(
            name: "IsobarHTTPTests", dependencies: ["IsobarHTTP", "IsobarTestKit", "OpenWeatherMap", "OpenMeteo"], exclude: ["Fixtures"],
            swiftSettings: strict),
        .testTarget(name: "ExecTests", dependencies: ["Exec", "IsobarCore", "IsobarTestKit", "FixtureReplay", "OpenMeteo"], swiftSettings: strict),
        .testTarget(name: "IsobarSimulationTests", dependencies: ["IsobarSimulation", "IsobarEngine", "IsobarConsensus", "IsobarTestKit"], swiftSettings: strict),
        .testTarget(name: "IsobarEngineTests", dependencies: ["IsobarEngine", "IsobarConsensus", "IsobarTestKit"], swiftSettings: strict),
        .testTarget(
            name: "NWSAlertsTests", dependencies: ["NWSAlerts", "IsobarCore", "IsobarConformance", "IsobarHTTP", "IsobarTestKit"],
            swiftSettings: strict),
        .testTarget(
            name: "METAlertsTests", dependencies: ["METAlerts", "IsobarCore", "IsobarConformance", "IsobarHTTP", "IsobarTestKit"],
            swiftSettings: strict),
        .testTarget(
            name: "MeteoAlarmTests", dependencies: ["MeteoAlarm", "IsobarCore", "IsobarConformance", "IsobarHTTP", "IsobarTestKit"],
            swiftSettings: strict),
        .testTarget(name: "IsobarFuzzTests", dependencies: ["IsobarFuzzTargets"], swiftSettings: strict),
        .testTarget(
            name: "METARTests", dependencies: ["METAR", "IsobarCore", "IsobarConformance", "IsobarHTTP", "IsobarTestKit"], exclude: ["Fixtures"],
            swiftSettings: strict),
        .testTarget(
            name: "IsobarCLITests", dependencies: ["IsobarCLI", "IsobarRender", "IsobarConsensus", "IsobarTestKit", "FixtureReplay", "IsobarStore"], exclude: ["Golden", "Readers"], swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)

// Each compiled provider: its directory under Providers/, built on Core and the modules it lists.
package.targets += providerTargets.map { provider in
    .target(name: provider.name, dependencies: ["IsobarCore"] + provider.uses.map { .byName(name: $0) }, path: "Providers/\(provider.name)",
            exclude: provider.exclude, swiftSettings: inheriting)
}
