import Screen

/// Runs the interface on a terminal: draws, reads an event, updates, performs the effects,
/// until the player quits or a signal arrives. `perform` does the effects' work (the database
/// in the real program, a stub in tests) and answers with messages.
public enum EventLoop {
    public static func run(terminal: some Terminal, state: inout AppState, initial: [Effect],
                           perform: (Effect) -> [Message]) {
        var size = terminal.size
        // The first screen goes up before any effect runs, so the player sees the game at once.
        terminal.draw(view(state, size: size))
        var pending = initial
        while true {
            while !pending.isEmpty {
                let effect = pending.removeFirst()
                if effect == .quit { return }
                for message in perform(effect) { pending += update(&state, message) }
            }
            terminal.draw(view(state, size: size))
            guard let event = terminal.nextEvent(timeoutMilliseconds: 250) else { continue }
            switch event {
            case .interrupted: return
            case .resize(let newSize): size = newSize
            case .key(let key): pending = update(&state, .key(key))
            }
        }
    }
}
