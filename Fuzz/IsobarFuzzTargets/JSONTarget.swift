import IsobarCore

/// Bytes through the JSON wrapper, both with and without `rejectingDuplicateKeys`, then every value read back by its kind.
enum JSONTarget {
    /// The target.
    static let target = FuzzTarget(name: "json", summary: "any JSON text (the one-pass reader, and jansson for what it leaves)") { bytes in
        let strict: JSONDocument
        do throws(JSONError) {
            strict = try JSONDocument(parsing: bytes, rejectingDuplicateKeys: true)
        } catch {
            let plain = try? JSONDocument(parsing: bytes)
            if let plain, !error.description.contains("duplicate") {
                return .violated("only the duplicate-rejecting parse refused it, for another reason: \(error)")
            }
            if let plain, let broken = walk(plain.rootValue) { return .violated(broken) }
            return FuzzTarget.refusal(error.description)
        }
        do throws(JSONError) {
            _ = try JSONDocument(parsing: bytes)
        } catch {
            return .violated("the duplicate-rejecting parse accepted what the plain parse refused: \(error)")
        }
        if let broken = walk(strict.rootValue) { return .violated(broken) }
        return .accepted("top level: \(strict.rootValue.kind.name)")
    }

    /// Reads every value the way the decoders do; the first broken promise, if any.
    static func walk(_ value: JSONValue) -> String? {
        do throws(JSONError) {
            switch value.kind {
            case .object:
                for (key, member) in try value.members() {
                    guard let again = try value.member(ifPresent: key), again.kind == member.kind else {
                        return "\(value.path): member '\(key)' is not found again by name"
                    }
                    if key.unicodeScalars.contains(where: MessageText.isUnsafe),
                       member.path.description.unicodeScalars.contains(where: MessageText.isUnsafe) {
                        return "\(value.path): the path of a member holds control characters"
                    }
                    if let broken = walk(member) { return broken }
                }
            case .array:
                let elements = try value.elements()
                guard try value.count() == elements.count else { return "\(value.path): count differs from its elements" }
                _ = try? value.numbersOrNulls()
                _ = try? value.stringsOrNulls()
                for element in elements {
                    if let broken = walk(element) { return broken }
                }
            case .number:
                guard try value.double().isFinite else { return "\(value.path): a number that is not finite" }
                _ = try? value.int()
            case .string:
                _ = try value.string()
                _ = try? value.intOrNumericString()
            case .bool:
                _ = try value.bool()
            case .null:
                break
            }
            return nil
        } catch {
            return "\(value.path): reading a \(value.kind.name) as itself failed: \(error)"
        }
    }
}
