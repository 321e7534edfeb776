import CloudStore
import Testing
@testable import Sync

/// A cloud folder that refuses writes is not "offline": waiting for it to come back mends nothing.
@Suite struct SyncErrorWordingTests {
    @Test func anUnwritableFolderSaysItIsNotWritable() {
        let error = SyncEngine.classify(CloudStoreError.notWritable(reason: "the cloud folder /mnt/share is not writable by this user (cannot create /mnt/share/x: Permission denied)"))
        #expect(error == .notWritable("the cloud folder /mnt/share is not writable by this user (cannot create /mnt/share/x: Permission denied)"))
        #expect(error.exitCode == 69)
        #expect(!error.description.contains("offline") && !error.description.contains("when the folder is back"))
        #expect(error.description.contains("is not writable by this user"))
        #expect(SyncEngine.classify(CloudStoreError.unavailable(reason: "gone")).description.hasPrefix("offline: gone"))
    }
}
