import Foundation
@testable import IsobarCLI
import Testing

/// `scripts/make-deb.sh` over the debug binary: the control fields, the file list, the extracted binary run from `/`, and
/// (where this process is root) a real install into a scratch root and its removal.
@Suite(.serialized, .tags(.realTime)) struct DebianPackageTests {
    let script = packageRoot + "/scripts/make-deb.sh"

    /// True when dpkg-deb is here to build and read packages.
    static let hasDpkg = systemTool("dpkg-deb") != nil

    func environment() -> [String: String] {
        let home = temporaryDirectory("deb-home")
        return ["PATH": "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin", "HOME": home, "XDG_CACHE_HOME": home + "/cache",
                "XDG_CONFIG_HOME": home + "/config", "XDG_DATA_HOME": home + "/data"]
    }

    /// The package built once per test process from the debug binary (building takes minutes), and what the script printed.
    static let built = Task { () throws -> (deb: String, run: CLIRun) in
        guard let binary = isobarExecutable() else { throw CocoaError(.executableNotLoadable) }
        let output = temporaryDirectory("deb-out")
        let run = try await runExactly("/bin/bash", [packageRoot + "/scripts/make-deb.sh", "--binary", binary, "--output", output],
                                       environment: ["PATH": "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin", "HOME": temporaryDirectory("deb-home")])
        return (output + "/isobar_\(IsobarCommandLine.version)_amd64.deb", run)
    }

    /// The built package's path, once the script has succeeded.
    func build() async throws -> String {
        let (deb, run) = try await Self.built.value
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Built \(deb)"))
        return deb
    }

    @Test(.enabled(if: hasDpkg)) func thePackageHoldsTheInstalledFilesAndItsBinaryAnswersFromRoot() async throws {
        let deb = try await build()
        let info = try await runExactly("/usr/bin/dpkg-deb", ["-I", deb])
        #expect(info.code == 0, "\(info.stderr)")
        for field in ["Package: isobar", "Version: \(IsobarCommandLine.version)", "Architecture: amd64", "Section: utils"] {
            #expect(info.stdout.contains(" \(field)\n"), "\(field) missing from \(info.stdout)")
        }
        let depends = try #require(info.stdout.split(separator: "\n").first { $0.hasPrefix(" Depends: ") })
        // libcurl is loaded on use, so always named; SQLite, jansson and hiredis only when the binary links their shared
        // libraries (a debug build does; a release build carries them inside).
        #expect(depends.contains("libcurl4 (>= "), "libcurl4 missing from \(depends)")
        let binary = try #require(isobarExecutable())
        let linked = try await runExactly("/usr/bin/ldd", [binary]).stdout
        for (library, package) in [("libjansson.so", "libjansson4 (>= "), ("libsqlite3.so", "libsqlite3-0 (>= "), ("libhiredis.so", "libhiredis")] {
            #expect(depends.contains(package) == linked.contains(library), "\(package) in \(depends), \(library) in the binary's libraries: \(linked)")
        }

        let list = try await runExactly("/usr/bin/dpkg-deb", ["-c", deb])
        let paths = list.stdout.split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) }
        for file in ["./usr/bin/isobar", "./usr/share/isobar/demo.json", "./usr/share/isobar/places.json", "./usr/share/isobar/NOTICE",
                     "./usr/share/isobar/gazetteer/cities15000.tsv", "./usr/share/isobar/cassettes/open-meteo/minsk.json",
                     "./usr/share/isobar/schemas/isobar-lines-v1.schema.json", "./usr/share/man/man1/isobar.1.gz",
                     "./usr/share/doc/isobar/copyright", "./usr/share/doc/isobar/changelog.gz",
                     "./usr/share/bash-completion/completions/isobar", "./usr/share/zsh/vendor-completions/_isobar",
                     "./usr/share/fish/vendor_completions.d/isobar.fish"] {
            #expect(paths.contains(file), "\(file) is not in the package")
        }
        #expect(!paths.contains { $0.contains("install-manifest") })
        #expect(list.stdout.contains("-rwxr-xr-x root/root") && !list.stdout.contains("rw-rw"))

        let root = temporaryDirectory("deb-root")
        let extracted = try await runExactly("/usr/bin/dpkg-deb", ["-x", deb, root])
        #expect(extracted.code == 0, "\(extracted.stderr)")
        let copyright = try String(contentsOfFile: root + "/usr/share/doc/isobar/copyright", encoding: .utf8)
        for licence in ["License: CC-BY-4.0", "License: Expat", "License: CC-BY-SA-4.0", "GeoNames", "airportsdata"] {
            #expect(copyright.contains(licence), "\(licence) missing from the copyright file")
        }
        let run = try await runExactly(root + "/usr/bin/isobar", ["compare", "Minsk", "--demo"], in: "/", environment: environment())
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Minsk, Minsk City, BY"))
        #expect(run.stdout.contains("Replayed data, not live"))
    }

    /// A real `dpkg -i` and `dpkg --purge`, into a root of their own (dependencies are this machine's, not that root's).
    @Test(.enabled(if: hasDpkg && getuid() == 0)) func installingAndRemovingLeavesNothing() async throws {
        let deb = try await build()
        let root = temporaryDirectory("dpkg-root")
        try FileManager.default.createDirectory(atPath: root + "/var/lib/dpkg/info", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/var/lib/dpkg/updates", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: root + "/var/lib/dpkg/status", contents: Data())
        let before = contents(of: root).filter { !$0.hasPrefix("var/") }
        let dpkg = ["--root=" + root, "--log=/dev/null", "--force-depends", "--force-not-root"]
        let install = try await runExactly("/usr/bin/dpkg", dpkg + ["-i", deb], environment: environment())
        #expect(install.code == 0, "\(install.stderr)")
        #expect(FileManager.default.isExecutableFile(atPath: root + "/usr/bin/isobar"))
        let purge = try await runExactly("/usr/bin/dpkg", dpkg + ["--purge", "isobar"], environment: environment())
        #expect(purge.code == 0, "\(purge.stderr)")
        let left = contents(of: root).filter { !$0.hasPrefix("var/") }
        #expect(left == before, "left behind: \(Set(left).subtracting(before).sorted().prefix(10))")
    }

    @Test func usageErrorsAndAMissingBinary() async throws {
        let bogus = try await runExactly("/bin/bash", [script, "--bogus"], environment: environment())
        #expect(bogus.code == 64)
        #expect(bogus.stderr == "make-deb.sh: unknown option '--bogus'; see scripts/make-deb.sh --help\n")
        let maintainer = try await runExactly("/bin/bash", [script, "--maintainer", "nobody"], environment: environment())
        #expect(maintainer.code == 64)
        let missing = try await runExactly("/bin/bash", [script, "--binary", "/nonexistent/isobar", "--output", temporaryDirectory("deb-out")],
                                           environment: environment())
        #expect(missing.code == 1)
        #expect(missing.stderr.contains("no executable at /nonexistent/isobar"))
        let output = try await runExactly("/bin/bash", [script, "--output", "/nonexistent/folder"], environment: environment())
        #expect(output.code == 1)
        #expect(output.stderr.contains("cannot write the package into '/nonexistent/folder'"))
    }
}
