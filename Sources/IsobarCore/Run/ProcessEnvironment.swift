#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's environment variables, read straight from `environ`: what `getenv` sees, without starting Foundation's
/// process-information object (its setup is a measurable part of a short command's start).
public enum ProcessEnvironment {
    /// Every `NAME=value` entry of `environ` by name; where a name appears twice the first entry wins (as `getenv` reads
    /// it), and an entry without `=` or with an empty name is left out.
    public static func current() -> [String: String] {
        var variables: [String: String] = [:]
        // `environ` is NULL after `clearenv`, though the C declaration imports as a pointer that cannot be.
        let start: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = .init(bitPattern: UInt(bitPattern: environ))
        guard var entry = start else { return variables }
        while let pointer = entry.pointee {
            entry += 1
            let text = String(cString: pointer)
            guard let equals = text.utf8.firstIndex(of: UInt8(ascii: "=")), equals != text.startIndex else { continue }
            let name = String(text[..<equals])
            if variables[name] == nil { variables[name] = String(text[text.index(after: equals)...]) }
        }
        return variables
    }
}
