import App
import Foundation
import Sync
import Testing

/// What the full-screen game's status line says of a sync event (`Wording.note`).
@Suite struct SyncWordingTests {
    static let at = Date(timeIntervalSince1970: 1_795_000_000)

    @Test func eachEventHasItsNoteOrNone() {
        var arrived = SyncReport()
        arrived.downloaded = 2
        arrived.uploaded = 1
        #expect(Wording.note(for: .synced(SyncReport(), at: Self.at, manual: false)) == nil, "a quiet round with nothing says nothing")
        #expect(Wording.note(for: .synced(arrived, at: Self.at, manual: false)) == "Changes from another machine arrived.")
        #expect(Wording.note(for: .synced(arrived, at: Self.at, manual: true)) == Wording.sentence(arrived))
        #expect(Wording.note(for: .adopted(arrived, at: Self.at)) == "Joined the new cloud: 1 sent, 2 received.")
        #expect(Wording.note(for: .offline(reason: "the folder is gone", manual: false)) == nil)
        #expect(Wording.note(for: .offline(reason: "the folder is gone", manual: true))
                == "Offline: the folder is gone. Your moves are kept and sent later.")
        #expect(Wording.note(for: .failed("it broke", manual: false)) == "it broke")
        #expect(Wording.note(for: .syncing) == nil && Wording.note(for: .cloudReset) == nil)
    }
}
