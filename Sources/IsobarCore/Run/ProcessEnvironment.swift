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
        // `environ` is NULL after `clearenv`, though the C declaration imports as a pointer that cannot be.
        let start: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = .init(bitPattern: UInt(bitPattern: environ))
        guard let start else { return [:] }
        return variables(of: start)
    }

    /// The variables of a NULL-terminated list of `NAME=value` entries, as `current()` reads `environ`.
    static func variables(of start: UnsafePointer<UnsafeMutablePointer<CChar>?>) -> [String: String] {
        var count = 0
        while start[count] != nil { count += 1 }
        var variables: [String: String] = [:]
        variables.reserveCapacity(count)
        // Each entry is split where its first `=` is, in place: the name and the value are each made once, from their bytes.
        for pointer in UnsafeBufferPointer(start: start, count: count) {
            guard let pointer else { continue }
            let length = strlen(pointer)
            pointer.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
                let entry = UnsafeBufferPointer(start: bytes, count: length)
                guard let equals = entry.firstIndex(of: UInt8(ascii: "=")), equals > 0 else { return }
                let name = String(decoding: UnsafeBufferPointer(rebasing: entry[..<equals]), as: UTF8.self)
                if variables[name] == nil {
                    variables[name] = String(decoding: UnsafeBufferPointer(rebasing: entry[(equals + 1)...]), as: UTF8.self)
                }
            }
        }
        return variables
    }
}
