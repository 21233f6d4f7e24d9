import Exec
import Foundation
import Testing

/// Where a program is found and when it last changed (its description is cached by that time).
@Suite struct ExecProgramTests {
    @Test func aProgramReachedThroughALinkChangesWhenItsTargetDoes() throws {
        let directory = temporaryDirectory("exec-link")
        try FileManager.default.createDirectory(atPath: directory + "/plugins", withIntermediateDirectories: true)
        let target = directory + "/program.sh"
        _ = FileManager.default.createFile(atPath: target, contents: Data("#!/bin/sh\n".utf8), attributes: [.posixPermissions: 0o755])
        try FileManager.default.createSymbolicLink(atPath: directory + "/plugins/program.sh", withDestinationPath: "../program.sh")
        let program = try ExecProgram(command: ["plugins/program.sh"], providerID: "linked", environment: [:], directory: directory)
        let changed = Date(timeIntervalSince1970: 1_800_000_000)
        try FileManager.default.setAttributes([.modificationDate: changed], ofItemAtPath: target)
        #expect(program.modificationTime == changed.timeIntervalSince1970)
    }
}
