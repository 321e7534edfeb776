/// The one rule for an id typed short (`history show`, `match show`, `match decline`,
/// `match cancel`, `play --match`): the id whole, or its start, from one character up, as long
/// as it starts no other id of the same kind. Case does not matter.
public enum IDPrefix {
    /// The typed start as ids are kept (lower case), or nil when no id could start so (empty, or
    /// a character no id holds).
    public static func normalized(_ typed: String) -> String? {
        let lowered = typed.lowercased()
        guard !lowered.isEmpty, lowered.allSatisfy({ $0.isHexDigit || $0 == "-" }) else { return nil }
        return lowered
    }

    /// The ids `typed` names among `ids`: the id itself when it is one of them, else every id it starts.
    public static func matches(_ typed: String, among ids: [String]) -> [String] {
        if ids.contains(typed) { return [typed] }
        guard let start = normalized(typed) else { return [] }
        if ids.contains(start) { return [start] }
        return ids.filter { $0.hasPrefix(start) }
    }
}
