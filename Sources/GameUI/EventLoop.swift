import Foundation
import Screen

/// Runs the interface on a terminal: draws, reads an event, updates, performs the effects,
/// until the player quits or a signal arrives. `perform` does the effects' work (the database
/// in the real program, a stub in tests) and answers with messages.
public enum EventLoop {
    /// `inbox` hands over messages from other threads (the background sync, the clock); it is
    /// read every time round, at least four times a second.
    public static func run(terminal: some Terminal, state: inout AppState, initial: [Effect],
                           inbox: () -> [Message] = { [] }, perform: (Effect) -> [Message]) {
        var size = terminal.size
        // The first screen goes up before any effect runs, so the player sees the game at once.
        terminal.draw(view(state, size: size))
        var pending = initial
        var changed = true
        while true {
            for message in inbox() {
                pending += update(&state, message)
                changed = true
            }
            while !pending.isEmpty {
                let effect = pending.removeFirst()
                if effect == .quit { return }
                for message in perform(effect) { pending += update(&state, message) }
            }
            if changed { terminal.draw(view(state, size: size)) }
            // The timeout only lets a signal be noticed; nothing changes while the player waits,
            // unless the coach is thinking: then its answer is looked for every frame.
            guard let event = terminal.nextEvent(timeoutMilliseconds: state.thinking ? 16 : 250) else {
                changed = false
                continue
            }
            changed = true
            switch event {
            case .interrupted: return
            case .resize(let newSize): size = newSize
            case .key(let key): pending = update(&state, .pressed(key, at: ProcessInfo.processInfo.systemUptime))
            }
        }
    }
}
