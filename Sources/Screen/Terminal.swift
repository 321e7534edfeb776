/// What a real terminal can show; views choose glyphs from it, the adapter colours from it.
public struct TerminalCapabilities: Sendable, Equatable {
    /// Box drawing and symbols in Unicode (the locale's codeset is UTF-8).
    public var unicode: Bool
    /// Colours are shown (the terminal has them and NO_COLOR is not set).
    public var colors: Bool

    public init(unicode: Bool, colors: Bool) {
        self.unicode = unicode
        self.colors = colors
    }

    public var glyphs: Glyphs { unicode ? .unicode : .ascii }
}

/// A screen that shows buffers and reports keys. The curses adapter is one; tests use
/// `ScriptedTerminal`.
public protocol Terminal: AnyObject {
    var size: Size { get }
    var capabilities: TerminalCapabilities { get }
    /// Shows the buffer; cells the buffer does not cover are blank.
    func draw(_ buffer: ScreenBuffer)
    /// The next event, or nil when none came within the timeout.
    func nextEvent(timeoutMilliseconds: Int) -> KeyEvent?
    /// Gives the terminal back as it was. Safe to call more than once.
    func restore()
}

/// A terminal for tests: events come from a script, drawn buffers are kept.
public final class ScriptedTerminal: Terminal {
    public private(set) var size: Size
    public let capabilities: TerminalCapabilities
    public private(set) var drawn: [ScreenBuffer] = []
    public private(set) var restored = 0
    private var events: [KeyEvent]

    public init(size: Size, capabilities: TerminalCapabilities = .init(unicode: true, colors: false), events: [KeyEvent]) {
        self.size = size
        self.capabilities = capabilities
        self.events = events
    }

    public func draw(_ buffer: ScreenBuffer) { drawn.append(buffer) }

    /// The next scripted event; once the script runs out, an interrupt, so a loop always ends.
    public func nextEvent(timeoutMilliseconds: Int) -> KeyEvent? {
        guard !events.isEmpty else { return .interrupted }
        let event = events.removeFirst()
        if case .resize(let newSize) = event { size = newSize }
        return event
    }

    public func restore() { restored += 1 }
}
