import Screen

/// One list screen's model (Packs, In progress, Reading list, History, Matches): its items as
/// last loaded, the one chosen, and, on a screen that shows the chosen item whole (Enter), whether
/// it is open and how far its text is scrolled. Each screen's update (`ListUpdates.swift`) gives
/// it the keys it does not take itself.
public struct ListModel<Item: Sendable & Equatable>: Sendable, Equatable {
    public var items: [Item] = []
    public var selection = 0
    /// The chosen item shown on the whole screen.
    public var open = false
    /// Lines the open item's text is scrolled by.
    public var scroll = 0

    public init(_ items: [Item] = []) { self.items = items }

    /// The chosen item, if the list has one.
    public var selected: Item? { items.indices.contains(selection) ? items[selection] : nil }

    /// A list loaded takes the shown one's place: the selection stays within it, and an empty
    /// one has nothing open.
    mutating func show(_ loaded: [Item]) {
        items = loaded
        selection = Self.clamp(selection, loaded.count)
        if loaded.isEmpty { open = false }
    }

    /// Opens the chosen item on the whole screen, from its top; false when there is none.
    mutating func openSelected() -> Bool {
        guard selected != nil else { return false }
        open = true
        scroll = 0
        return true
    }

    /// Moves the selection with the arrow, page and first/last keys (a page is ten items);
    /// false when the key moves nothing.
    @discardableResult
    mutating func move(_ key: Key) -> Bool {
        let page = 10
        switch key {
        case Keys.up: selection -= 1
        case Keys.down: selection += 1
        case Keys.pageUp: selection -= page
        case Keys.pageDown: selection += page
        case Keys.first: selection = 0
        case Keys.last: selection = items.count - 1
        default: return false
        }
        selection = Self.clamp(selection, items.count)
        return true
    }

    /// Scrolls the open item's text: Up/Down a line, PgUp/PgDn `page` lines (none when 0);
    /// false when the key scrolls nothing.
    @discardableResult
    mutating func scrollOpen(_ key: Key, page: Int) -> Bool {
        switch key {
        case Keys.up: scroll = max(0, scroll - 1)
        case Keys.down: scroll += 1
        case Keys.pageUp where page > 0: scroll = max(0, scroll - page)
        case Keys.pageDown where page > 0: scroll += page
        default: return false
        }
        return true
    }

    static func clamp(_ index: Int, _ count: Int) -> Int { max(0, min(index, count - 1)) }
}
