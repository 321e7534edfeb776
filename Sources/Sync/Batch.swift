import CloudStore
import Foundation
import Storage

/// One commit's worth of outgoing changes: one zone, one save policy, at most 400 records,
/// with the part of the queue it carries so exactly that part is acknowledged.
struct Batch {
    var zone: SyncZone
    var policy: SavePolicy
    var records: [CloudRecord] = []
    var deletions: [String] = []
    var changes = OutgoingChanges()

    var count: Int { records.count + deletions.count }

    /// Games go with the changed-keys policy (their conflicts are merged by the game's rules);
    /// marks and bookmarks too, each with every field and the version it was changed from, so
    /// one goes only over the version this machine last saw (a conflict brings the cloud's
    /// newer one, applied as a fetched one is; a change still waiting then goes over it, so the
    /// last change still wins). Guesses and deletions are last-writer-wins by causal order, and
    /// a guess's name makes resending it harmless. Games go first and their marks with them (one
    /// policy, so in the same commits), so no guess or mark reaches another machine before its game.
    static func split(_ outgoing: OutgoingChanges, device: String) -> [Batch] {
        var batches: [Batch] = []
        func add(_ zone: SyncZone, _ policy: SavePolicy, _ fill: (inout Batch) -> Void) {
            if batches.last.map({ $0.zone != zone || $0.policy != policy || $0.count >= SyncEngine.batchLimit }) ?? true {
                batches.append(Batch(zone: zone, policy: policy))
            }
            fill(&batches[batches.count - 1])
        }
        for change in outgoing.games {
            let system = change.systemFields.flatMap(SystemFields.init(encoded:))
            let fields: Set<GameField>? = change.isNew || system == nil ? nil : change.changedFields
            add(.games, .changedKeys) {
                $0.records.append(CloudSchema.record(change.game, fields: fields, device: device, systemFields: change.isNew ? nil : system))
                $0.changes.games.append(change)
            }
        }
        for change in outgoing.marks {
            add(.games, .changedKeys) {
                $0.records.append(CloudSchema.record(change.mark, device: device, systemFields: change.systemFields.flatMap(SystemFields.init(encoded:))))
                $0.changes.marks.append(change)
            }
        }
        for guess in outgoing.guesses {
            add(.games, .overwrite) { $0.records.append(CloudSchema.record(guess, device: device)); $0.changes.guesses.append(guess) }
        }
        for deletion in outgoing.deletions {
            add(deletion.zone, .overwrite) { $0.deletions.append(deletion.recordName); $0.changes.deletions.append(deletion) }
        }
        for change in outgoing.bookmarks {
            add(.readingList, .changedKeys) {
                $0.records.append(CloudSchema.record(change.bookmark, device: device, systemFields: change.systemFields.flatMap(SystemFields.init(encoded:))))
                $0.changes.bookmarks.append(change)
            }
        }
        return batches
    }
}
