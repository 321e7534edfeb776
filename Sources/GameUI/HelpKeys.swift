/// Every key of the interface, as the help screen lists it (made from the key table, `Keys`).
/// Tests walk this list, so a key added without a test fails the suite.
public struct HelpEntry: Sendable, Equatable {
    public var keys: String
    public var action: String
}

public struct HelpSection: Sendable, Equatable {
    public var title: String
    public var entries: [HelpEntry]
}

public enum HelpKeys {
    public static let sections: [HelpSection] = Keys.sections.map { section in
        HelpSection(title: section.title, entries: section.bindings.compactMap(\.help))
    }
}
