// The floor the start-up benchmark measures Isobar against: a program that imports FoundationEssentials, as `isobar`
// does, linked the same way, and prints one line.
import FoundationEssentials

print("hello \(ProcessInfo.processInfo.processIdentifier > 0 ? "world" : "")")
