import Foundation
import Testing
@testable import CloudStore

/// The checksum of every cloud file header: zlib's CRC-32, the IEEE one of zip and PNG.
@Suite struct CRC32Tests {
    @Test func theStandardCheckValues() {
        #expect(CRC32.checksum(Data("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum(Data()) == 0)
        #expect(CRC32.checksum(Data("The quick brown fox jumps over the lazy dog".utf8)) == 0x414F_A339)
    }
}
