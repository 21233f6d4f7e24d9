/// One column of a table for people, said once: the key the table's narrowing steps name it by, its header, its shorter
/// header for a narrow terminal, whether it is aligned left, and its cell for a row.
public struct ColumnSpec<Key: Hashable, Row> {
    /// What the narrowing steps call it.
    public let key: Key
    /// The header.
    public let header: String
    /// The header on a narrow terminal, when it has a shorter one.
    public let shortHeader: String?
    /// True to align it left (numbers align right).
    public let leftAligned: Bool
    /// Its cell for a row.
    public let cell: (Row) -> String

    /// A column; `short` is its header on a narrow terminal.
    public init(_ key: Key, _ header: String, short: String? = nil, left: Bool = false, cell: @escaping (Row) -> String) {
        self.key = key
        self.header = header
        shortHeader = short
        leftAligned = left
        self.cell = cell
    }
}

/// A table's columns in order: its header, alignment and cells come from them, and its narrowing steps (what is shortened,
/// cut and left out, in which order) name them by key, so that no column is known by its position anywhere else.
public struct TableColumns<Key: Hashable, Row> {
    /// The columns, left to right.
    public let columns: [ColumnSpec<Key, Row>]

    /// The table of these columns.
    public init(_ columns: [ColumnSpec<Key, Row>]) { self.columns = columns }

    /// The position of the column `key` (a key that is not there is a programming error).
    public func index(_ key: Key) -> Int { columns.firstIndex { $0.key == key }! }

    /// The columns `keys` get their short headers; `legend` (what an abbreviation stands for) is said under the table.
    public func shortHeaders(_ keys: [Key], legend: String? = nil) -> Narrowing {
        .headers(Dictionary(uniqueKeysWithValues: keys.map { key in (index(key), columns[index(key)].shortHeader ?? columns[index(key)].header) }),
                 legend: legend)
    }

    /// The column `key` gets the header `header` (a second, shorter header after its short one).
    public func header(_ key: Key, _ header: String) -> Narrowing { .headers([index(key): header]) }

    /// Every cell of the columns `keys` rewritten shorter; `loses` names what goes.
    public func cells(_ keys: [Key], loses: String? = nil, _ shorten: @escaping (String) -> String) -> Narrowing {
        .cells(keys.map(index), loses: loses, shorten)
    }

    /// The column `key` cut with "…" as far as needed, never below `minimum` cells.
    public func truncate(_ key: Key, minimum: Int) -> Narrowing { .truncate(index(key), minimum: minimum) }

    /// The column `key` left out.
    public func drop(_ key: Key) -> Narrowing { .drop(index(key)) }

    /// The table of `rows`, narrowed by `narrowing` on a narrow terminal.
    public func table(_ rows: [Row], narrowing: [Narrowing]) -> TextTable {
        TextTable(header: columns.map(\.header), rows: rows.map { row in columns.map { $0.cell(row) } },
                  leftAligned: Set(columns.indices.filter { columns[$0].leftAligned }), narrowing: narrowing)
    }
}
