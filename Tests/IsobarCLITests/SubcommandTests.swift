import Foundation
@testable import IsobarCLI
import Testing

/// The actions of `cities`, `home`, `cache`, `archive`, `providers` and `config` are tables: the spec's action words, the
/// unknown-action error and each action's `--help` all come from them.
@Suite struct SubcommandTests {
    /// Every command with actions, with its table's words and each action's help.
    private let tables: [(name: String, words: [String], help: [CommandSpec])] = [
        (CitiesCommand.spec.name, CitiesCommand.actionNames, CitiesCommand.subcommands.map { $0.spec(of: CitiesCommand.spec) }),
        (HomeCommand.spec.name, HomeCommand.actionNames, HomeCommand.subcommands.map { $0.spec(of: HomeCommand.spec) }),
        (CacheCommand.spec.name, CacheCommand.actionNames, CacheCommand.subcommands.map { $0.spec(of: CacheCommand.spec) }),
        (ArchiveCommand.spec.name, ArchiveCommand.actionNames, ArchiveCommand.subcommands.map { $0.spec(of: ArchiveCommand.spec) }),
        (ProvidersCommand.spec.name, ProvidersCommand.actionNames, ProvidersCommand.subcommands.map { $0.spec(of: ProvidersCommand.spec) }),
        (ConfigCommand.spec.name, ConfigCommand.actionNames, ConfigCommand.subcommands.map { $0.spec(of: ConfigCommand.spec) }),
    ]

    @Test func theSpecsActionsAreTheTablesWords() throws {
        for table in tables {
            let spec = try #require(CommandTable.named(table.name)?.spec)
            #expect(spec.actions == table.words, "\(table.name)")
            #expect(Set(table.words).count == table.words.count, "\(table.name) names an action twice")
            for help in table.help {
                #expect(help.name.hasPrefix(table.name + " "))
                #expect(help.options.map(\.name) == spec.options.map(\.name), "\(help.name) takes its command's options")
                #expect(!help.summary.isEmpty)
            }
        }
        #expect(CitiesCommand.actionNames == ["list", "add", "remove", "rm", "move"])
        #expect(CitiesCommand.subcommand(named: "rm")?.name == "remove")
        #expect(CitiesCommand.subcommand(named: "delete") == nil)
    }

    @Test(arguments: [
        (["cities", "ad", "Minsk"], "isobar: unknown cities action 'ad'; did you mean 'add'?; actions are list, add, remove, rm, move\n"),
        (["cache", "prun"], "isobar: unknown cache action 'prun'; did you mean 'prune'?; actions are stats, clear, prune\n"),
        (["archive", "zzz"], "isobar: unknown archive action 'zzz'; actions are stats, prune, clear, export, import\n"),
        (["providers", "chek", "x"], "isobar: unknown providers action 'chek'; did you mean 'check'?; actions are list, reset, check, new, enable, disable\n"),
        (["config", "sett"], "isobar: unknown config action 'sett'; did you mean 'set'?; actions are list, path, get, set\n"),
        (["home", "sett", "Minsk"], "isobar: unknown home action 'sett'; use isobar home, isobar home set PLACE, or isobar home unset\n"),
    ])
    func anUnknownActionIsAUsageErrorNamingTheTablesActions(arguments: [String], message: String) async throws {
        let run = await runCLI(arguments + ["--demo"].filter { _ in arguments[0] != "cache" && arguments[0] != "archive" && arguments[0] != "config" })
        #expect(run.code == 64)
        #expect(run.stderr == message)
        #expect(run.stdout.isEmpty)
    }

    @Test func anActionsHelpIsItsOwnUsageWithItsCommandsOptions() async throws {
        let run = await runCLI(["cities", "move", "--help", "--demo"])
        #expect(run.code == 0)
        #expect(run.stdout.hasPrefix("Move a city to another place in the list (numbers, names or coordinates).\n\nUsage: isobar cities move FROM TO [options]\n"))
        #expect(run.stdout.contains("  --plain "))
        let check = await runCLI(["providers", "check", "--help"])
        #expect(check.code == 0)
        #expect(check.stdout.contains("Usage: isobar providers check ID [PLACE] [options]\n"))
        #expect(check.stdout.contains("  --replay DIR"))
        // An alias shows its action's help; a word that is no action shows the command's.
        let alias = await runCLI(["cities", "rm", "--help", "--demo"])
        #expect(alias.stdout.contains("Usage: isobar cities remove PLACE|NUMBER [options]\n"))
        let other = await runCLI(["cities", "Minsk", "--help", "--demo"])
        #expect(other.stdout.contains("Usage: isobar cities [ACTION] [PLACE] [TO] [options]\n"))
    }
}
