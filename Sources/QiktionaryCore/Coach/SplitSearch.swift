import Dispatch

/// A word the hint may choose, with what breaks ties.
struct PoolWord: Sendable {
    var code: WordCode
    /// Alphabetical rank among the words that can be chosen: the last tie-break.
    var rank: Int32
    var isCandidate: Bool
}

/// What a guess is judged by, lowest first: Σ s² over its groups, then a candidate before a
/// word that cannot be the secret, then alphabetical order. No two words share a key.
struct SplitKey: Comparable, Sendable {
    var sum: Int
    /// `nonCandidate << 31 | rank`.
    var tie: UInt32

    init(sum: Int, word: PoolWord) {
        self.sum = sum
        tie = (word.isCandidate ? 0 : 1 << 31) | UInt32(word.rank)
    }

    init(sum: Int, tie: UInt32) {
        self.sum = sum
        self.tie = tie
    }

    static let worst = SplitKey(sum: .max, tie: .max)

    static func < (a: SplitKey, b: SplitKey) -> Bool {
        a.sum != b.sum ? a.sum < b.sum : a.tie < b.tie
    }

    /// The largest partial sum a guess with tie-break `tie` may reach and still beat `self`.
    func sumLimit(tie: UInt32) -> Int {
        if sum == .max { return .max }
        return tie < self.tie ? sum : sum - 1
    }
}

/// The result of the search: the chosen pool word, its Σ s² and its number of groups.
struct SplitChoice: Sendable, Equatable {
    var index: Int
    var sum: Int
    var groups: Int
}

/// The candidates as bit planes, 64 candidates to a machine word ("bit slicing"), so that one
/// guess is scored against 64 candidates at once with AND, XOR and OR:
///
/// - plane (p, c): the candidates with letter c at position p;
/// - plane (c, k): the candidates with at least k copies of letter c.
///
/// A guess's in-place count for each candidate is the sum of its `length` position planes, and
/// its shared-letter count (as a multiset) the sum of the planes (c, 1 … m) for each of its
/// letters c with m copies: `length` planes again. Full adders sum up to 7 planes into a 3-bit
/// count per candidate; ANDing the bit patterns of each possible count gives, per feedback, a
/// mask of the candidates that would answer it, and its popcount is their number. Each plane is
/// stored contiguously across blocks, so the `2 × length` planes a guess reads stream through
/// memory one block after another.
struct CandidatePlanes: Sendable {
    /// Longest word the 3-bit counts hold.
    static let maxLength = 7

    let length: Int
    let count: Int
    let blocks: Int
    /// Most copies of one letter in one candidate (at least 1).
    let depth: Int
    let bits: [UInt64]
    /// The valid lanes of the last block.
    let lastMask: UInt64
    /// A plane of zeros, for the adders' unused inputs and for copies no candidate has.
    let zeroPlane: Int
    /// Candidates in each plane, for ordering the guesses.
    let planeCounts: [Int]

    init(candidates: [WordCode], length: Int) {
        self.length = length
        count = candidates.count
        blocks = max(1, (candidates.count + 63) / 64)
        // Copies of each letter in the word at hand, put back to zeros after each word.
        var seen = [Int](repeating: 0, count: 26)
        var depth = 1
        for word in candidates {
            for p in 0..<length {
                let c = word.letter(at: p)
                seen[c] += 1
                depth = max(depth, seen[c])
            }
            for p in 0..<length { seen[word.letter(at: p)] = 0 }
        }
        self.depth = depth
        let planes = 26 * length + 26 * depth + 1
        zeroPlane = planes - 1
        var bits = [UInt64](repeating: 0, count: planes * blocks)
        var planeCounts = [Int](repeating: 0, count: planes)
        for (i, word) in candidates.enumerated() {
            let block = i >> 6, bit: UInt64 = 1 << UInt64(i & 63)
            for p in 0..<length {
                let c = word.letter(at: p)
                let position = p * 26 + c
                bits[position * blocks + block] |= bit
                planeCounts[position] += 1
                seen[c] += 1
                let copy = 26 * length + 26 * (seen[c] - 1) + c
                bits[copy * blocks + block] |= bit
                planeCounts[copy] += 1
            }
            for p in 0..<length { seen[word.letter(at: p)] = 0 }
        }
        self.bits = bits
        self.planeCounts = planeCounts
        let tail = candidates.count & 63
        lastMask = tail == 0 ? ~0 : (1 << UInt64(tail)) - 1
    }

    func positionPlane(_ position: Int, _ letter: Int) -> Int { position * 26 + letter }

    /// The plane of candidates with at least `k` (≥ 1) copies of `letter`.
    func copiesPlane(_ letter: Int, _ k: Int) -> Int {
        k <= depth ? 26 * length + 26 * (k - 1) + letter : zeroPlane
    }

    /// The number of planes a guess reads under `rules`.
    static func width(_ rules: Rules) -> Int { rules == .mastermind ? 14 : 7 }

    /// Appends the planes a guess reads: 7 for the in-place sum and 7 for the shared-letter sum
    /// (mastermind), or 7 for the shared letters alone (classic), padded with the zero plane.
    /// `seen` is 26 zeros on entry and on return (scratch space, so no word allocates).
    func appendInputs(of guess: WordCode, rules: Rules, to table: inout [Int], seen: inout [Int]) {
        if rules == .mastermind {
            for p in 0..<length { table.append(positionPlane(p, guess.letter(at: p))) }
            for _ in length..<7 { table.append(zeroPlane) }
        }
        var shared = 0
        for p in 0..<length {
            let c = guess.letter(at: p)
            seen[c] += 1
            // Classic counts each shared letter once, whatever its copies.
            if rules == .mastermind || seen[c] == 1 {
                table.append(copiesPlane(c, seen[c]))
                shared += 1
            }
        }
        for _ in shared..<7 { table.append(zeroPlane) }
        for p in 0..<length { seen[guess.letter(at: p)] = 0 }
    }

    /// How much a guess is expected to split the candidates, from the plane sizes alone: a plane
    /// holding f of n candidates separates f·(n − f) pairs. Only orders the search.
    func promise(of inputs: ArraySlice<Int>) -> Int {
        var score = 0
        for plane in inputs where plane != zeroPlane {
            let f = planeCounts[plane]
            score += f * (count - f)
        }
        return score
    }
}

/// The search for the best guess: every pool word's Σ s² over the candidates, with pruning and
/// both cores. The result does not depend on the number of threads or the order the candidates
/// come in: pruning only drops a guess that provably cannot beat one already found, under a
/// total order.
enum SplitSearch {
    /// Below this many guess × candidate pairs one thread is quicker than waking a second.
    static let parallelFrom = 200_000

    /// The pool word with the lowest key, or nil when the pool or the candidates are empty.
    /// The candidates must be distinct.
    static func best(rules: Rules, length: Int, candidates: [WordCode], pool: [PoolWord], parallel: Bool,
                     parallelFrom: Int = SplitSearch.parallelFrom) -> SplitChoice? {
        guard !candidates.isEmpty, !pool.isEmpty else { return nil }
        guard length >= 1, length <= CandidatePlanes.maxLength else {
            return scalarBest(rules: rules, length: length, candidates: candidates, pool: pool)
        }
        // Candidates in a fixed pseudo-random order: in the given (alphabetical) order the
        // first blocks would be words sharing a first letter, and a partial sum would then say
        // little about the whole, which is what pruning relies on.
        var order = Array(candidates.indices)
        var generator = SeededGenerator(seed: 0x9E37_79B9)
        order.shuffle(using: &generator)
        let planes = CandidatePlanes(candidates: order.map { candidates[$0] }, length: length)

        let width = CandidatePlanes.width(rules)
        var inputs: [Int] = []
        inputs.reserveCapacity(pool.count * width)
        var seen = [Int](repeating: 0, count: 26)
        for word in pool { planes.appendInputs(of: word.code, rules: rules, to: &inputs, seen: &seen) }

        // Promising guesses first, so the bound is tight before most guesses are looked at.
        let promise = pool.indices.map { planes.promise(of: inputs[$0 * width..<($0 + 1) * width]) }
        let ranked = pool.indices.sorted { promise[$0] != promise[$1] ? promise[$0] > promise[$1] : pool[$0].rank < pool[$1].rank }

        let kernel = Kernel(planes: planes, rules: rules, inputs: inputs)
        // A few of the most promising guesses on one thread set the bound the others start from.
        let head = min(ranked.count, 4)
        var best = kernel.search(ranked[0..<head], pool: pool, bound: nil)
        let rest = ranked[head...]
        guard !rest.isEmpty else { return best.map { kernel.choice($0, pool: pool) } }

        let pairs = rest.count * candidates.count
        let chunks = parallel && pairs >= parallelFrom ? min(rest.count, 64) : 1
        if chunks == 1 {
            if let found = kernel.search(rest, pool: pool, bound: best) { best = found }
        } else {
            // Fixed chunks taken by whichever thread is free; each starts from the head's bound
            // and keeps its own. Every chunk's best is exact for its guesses, so the least of
            // them is the same however the chunks were spread over threads.
            let results = ChunkResults(count: chunks)
            let size = (rest.count + chunks - 1) / chunks
            let start = rest.startIndex
            let headBest = best
            DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                let lower = start + chunk * size, upper = min(start + (chunk + 1) * size, rest.endIndex)
                guard lower < upper else { return }
                results.set(chunk, kernel.search(rest[lower..<upper], pool: pool, bound: headBest))
            }
            for found in results.all() where found.key < (best?.key ?? .worst) { best = found }
        }
        return best.map { kernel.choice($0, pool: pool) }
    }

    /// Every pool word scored fully by `FeedbackCode`, no pruning: for words longer than the
    /// planes hold (the dictionary has none, but a practice game may be on any word).
    static func scalarBest(rules: Rules, length: Int, candidates: [WordCode], pool: [PoolWord]) -> SplitChoice? {
        var best: (key: SplitKey, choice: SplitChoice)?
        for (index, word) in pool.enumerated() {
            let sizes = groupSizes(of: word.code, over: candidates, scorer: FeedbackCode(rules: rules, length: length))
            let sum = sizes.reduce(0) { $0 + $1 * $1 }
            let key = SplitKey(sum: sum, word: word)
            if best == nil || key < best!.key { best = (key, SplitChoice(index: index, sum: sum, groups: sizes.count)) }
        }
        return best?.choice
    }

    /// The sizes of the feedback groups `guess` splits `candidates` into, the win (the guess
    /// itself, when it is a candidate) a group of its own. The candidates must be distinct.
    static func groupSizes(of guess: WordCode, over candidates: [WordCode], scorer: FeedbackCode) -> [Int] {
        var counts = [Int](repeating: 0, count: FeedbackCode.count)
        var won = 0
        for candidate in candidates {
            if candidate.positions == guess.positions { won += 1 } else { counts[scorer.code(guess, candidate)] += 1 }
        }
        return counts.filter { $0 > 0 } + (won > 0 ? [won] : [])
    }
}

/// One chunk's best, written by the thread that searched it; each slot is written by one
/// iteration only, and read after `concurrentPerform` returns.
private final class ChunkResults: @unchecked Sendable {
    private let slots: UnsafeMutableBufferPointer<Found?>

    init(count: Int) {
        slots = .allocate(capacity: count)
        slots.initialize(repeating: nil)
    }

    deinit {
        slots.deinitialize()
        slots.deallocate()
    }

    func set(_ index: Int, _ value: Found?) { slots[index] = value }
    func all() -> [Found] { slots.compactMap { $0 } }
}

/// A fully scored guess: its pool index, its key and its number of groups.
struct Found: Sendable {
    var index: Int
    var key: SplitKey
    var groups: Int
}

/// Scores guesses against the planes.
struct Kernel: Sendable {
    let planes: CandidatePlanes
    let rules: Rules
    /// The planes each pool word reads, `CandidatePlanes.width(rules)` to a word.
    let inputs: [Int]

    func choice(_ found: Found, pool: [PoolWord]) -> SplitChoice {
        SplitChoice(index: found.index, sum: found.key.sum, groups: found.groups)
    }

    /// Working space for one guess: group counts by code, their partial counts as bytes, and
    /// the count masks of one block.
    struct Scratch {
        var counts: UnsafeMutablePointer<Int>
        var bytes: UnsafeMutablePointer<UInt64>
        var places: UnsafeMutablePointer<UInt64>
        var shared: UnsafeMutablePointer<UInt64>
    }

    /// The best of `indices` that beats `bound`, if any.
    func search<C: Collection>(_ indices: C, pool: [PoolWord], bound: Found?) -> Found? where C.Element == Int {
        var best = bound
        let width = CandidatePlanes.width(rules)
        planes.bits.withUnsafeBufferPointer { bits in inputs.withUnsafeBufferPointer { table in
            withUnsafeTemporaryAllocation(of: Int.self, capacity: 64) { counts in
                withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 80) { words in
                    let base = words.baseAddress!
                    let scratch = Scratch(counts: counts.baseAddress!, bytes: base, places: base + 64, shared: base + 72)
                    for index in indices {
                        let word = pool[index]
                        let tie = SplitKey(sum: 0, word: word).tie
                        let limit = best?.key.sumLimit(tie: tie) ?? .max
                        let inputs = table.baseAddress! + index * width
                        let scored: (sum: Int, groups: Int)?
                        switch rules {
                        case .mastermind:
                            scored = mastermind(inputs, bits: bits.baseAddress!, scratch, limit: limit)
                        case .classic:
                            scored = classic(inputs, own: word.isCandidate ? word.code.distinctLetters : nil,
                                             bits: bits.baseAddress!, scratch, limit: limit)
                        }
                        if let scored {
                            let key = SplitKey(sum: scored.sum, tie: tie)
                            if key < (best?.key ?? .worst) { best = Found(index: index, key: key, groups: scored.groups) }
                        }
                    }
                }
            }
        } }
        // `bound` came from elsewhere: only report a guess of these indices.
        if let best, let bound, best.index == bound.index, best.key == bound.key { return nil }
        return best
    }

    /// Three one-bit inputs to a two-bit sum: (sum bit, carry bit).
    @inline(__always)
    private func fullAdd(_ a: UInt64, _ b: UInt64, _ c: UInt64) -> (UInt64, UInt64) {
        let t = a ^ b
        return (t ^ c, (a & b) | (t & c))
    }

    /// Seven one-bit inputs to a three-bit count per lane.
    @inline(__always)
    private func add7(_ x0: UInt64, _ x1: UInt64, _ x2: UInt64, _ x3: UInt64, _ x4: UInt64, _ x5: UInt64, _ x6: UInt64)
        -> (UInt64, UInt64, UInt64) {
        let (s1, c1) = fullAdd(x0, x1, x2)
        let (s2, c2) = fullAdd(x3, x4, x5)
        let (b0, c3) = fullAdd(s1, s2, x6)
        let (b1, b2) = fullAdd(c1, c2, c3)
        return (b0, b1, b2)
    }

    /// A three-bit count per lane as the eight masks "the count is v", valid lanes only.
    @inline(__always)
    private func masks(_ b0: UInt64, _ b1: UInt64, _ b2: UInt64, valid: UInt64, into out: UnsafeMutablePointer<UInt64>) {
        let one = b0 & valid, zero = ~b0 & valid
        let low = ~b1 & ~b2, two = b1 & ~b2, four = ~b1 & b2, six = b1 & b2
        out[0] = low & zero; out[1] = low & one
        out[2] = two & zero; out[3] = two & one
        out[4] = four & zero; out[5] = four & one
        out[6] = six & zero; out[7] = six & one
    }

    /// The bits set in each byte of `x`: the first three steps of a SWAR popcount. There is no
    /// popcount instruction in the baseline x86-64 the package builds for, so the last step
    /// (summing the bytes) is left for `byteSum`, once every 8 blocks: a byte then holds at
    /// most 8 × 8 = 64.
    @inline(__always)
    private func byteCounts(_ x: UInt64) -> UInt64 {
        var x = x
        x = x &- ((x >> 1) & 0x5555_5555_5555_5555)
        x = (x & 0x3333_3333_3333_3333) &+ ((x >> 2) & 0x3333_3333_3333_3333)
        return (x &+ (x >> 4)) & 0x0F0F_0F0F_0F0F_0F0F
    }

    /// The sum of the bytes of `x` (each at most 64, so the sum fits the 16-bit fields).
    @inline(__always)
    private func byteSum(_ x: UInt64) -> Int {
        let pairs = (x & 0x00FF_00FF_00FF_00FF) &+ ((x >> 8) & 0x00FF_00FF_00FF_00FF)
        return Int(truncatingIfNeeded: (pairs &* 0x0001_0001_0001_0001) >> 48)
    }

    /// Blocks between two looks at the bound (and flushes of the byte counts).
    private static let stride = 8

    /// Mastermind: groups by (in place, shared), code `inPlace << 3 | shared`. Returns nil as
    /// soon as the Σ s² so far plus the least the remaining candidates can add (1 each) passes
    /// `limit`. The length is made a constant by specialising on it, so the loops over counts
    /// unroll.
    private func mastermind(_ inputs: UnsafePointer<Int>, bits: UnsafePointer<UInt64>, _ scratch: Scratch, limit: Int) -> (sum: Int, groups: Int)? {
        switch planes.length {
        case 7: mastermind(Length7.self, inputs, bits: bits, scratch, limit: limit)
        case 6: mastermind(Length6.self, inputs, bits: bits, scratch, limit: limit)
        case 5: mastermind(Length5.self, inputs, bits: bits, scratch, limit: limit)
        case 4: mastermind(Length4.self, inputs, bits: bits, scratch, limit: limit)
        case 3: mastermind(Length3.self, inputs, bits: bits, scratch, limit: limit)
        case 2: mastermind(Length2.self, inputs, bits: bits, scratch, limit: limit)
        default: mastermind(Length1.self, inputs, bits: bits, scratch, limit: limit)
        }
    }

    @inline(__always)
    private func mastermind<L: WordLength>(_: L.Type, _ inputs: UnsafePointer<Int>, bits: UnsafePointer<UInt64>, _ scratch: Scratch,
                                           limit: Int) -> (sum: Int, groups: Int)? {
        let length = L.value, blocks = planes.blocks
        let p0 = bits + inputs[0] * blocks, p1 = bits + inputs[1] * blocks, p2 = bits + inputs[2] * blocks
        let p3 = bits + inputs[3] * blocks, p4 = bits + inputs[4] * blocks, p5 = bits + inputs[5] * blocks
        let p6 = bits + inputs[6] * blocks
        let q0 = bits + inputs[7] * blocks, q1 = bits + inputs[8] * blocks, q2 = bits + inputs[9] * blocks
        let q3 = bits + inputs[10] * blocks, q4 = bits + inputs[11] * blocks, q5 = bits + inputs[12] * blocks
        let q6 = bits + inputs[13] * blocks
        let counts = scratch.counts, bytes = scratch.bytes, places = scratch.places, shared = scratch.shared
        counts.update(repeating: 0, count: 64)
        bytes.update(repeating: 0, count: 64)
        // Most candidates share fewer than 4 places and fewer than 7 letters with a guess: their
        // counts are taken every block, the others behind a test that is seldom true.
        let commonRows = min(3, length), commonColumns = min(6, length)
        var sum = 0
        for b in 0..<blocks {
            let valid = b == blocks - 1 ? planes.lastMask : ~0
            let (a0, a1, a2) = add7(p0[b], p1[b], p2[b], p3[b], p4[b], p5[b], p6[b])
            let (t0, t1, t2) = add7(q0[b], q1[b], q2[b], q3[b], q4[b], q5[b], q6[b])
            masks(a0, a1, a2, valid: valid, into: places)
            masks(t0, t1, t2, valid: ~0, into: shared)
            // In place never exceeds shared: only codes with i ≤ j occur.
            for i in 0...commonRows {
                let row = places[i]
                for j in i...commonColumns { bytes[i << 3 | j] &+= byteCounts(row & shared[j]) }
            }
            if length >= 4, a2 & valid != 0 {
                for i in 4...max(4, length) where i <= length {
                    let row = places[i]
                    for j in i...max(i, length) { bytes[i << 3 | j] &+= byteCounts(row & shared[j]) }
                }
            }
            if length == 7 {
                let all = t0 & t1 & t2
                if all != 0 {
                    for i in 0...3 { bytes[i << 3 | 7] &+= byteCounts(places[i] & all) }
                }
            }
            if b % Kernel.stride == Kernel.stride - 1 || b == blocks - 1 {
                sum = 0
                for i in 0...length {
                    for j in i...length {
                        let code = i << 3 | j
                        let c = counts[code] &+ byteSum(bytes[code])
                        counts[code] = c
                        bytes[code] = 0
                        sum &+= c &* c
                    }
                }
                if sum + max(planes.count - (b + 1) * 64, 0) > limit { return nil }
            }
        }
        var groups = 0
        for code in 0..<64 where counts[code] > 0 { groups += 1 }
        return (sum, groups)
    }

    /// Classic: groups by the count of shared letters. When the guess is a candidate, the win is
    /// a group of one apart from the anagrams that also score `length`: the guess lands in the
    /// group of its own score (`own`), which is counted one short, and the win adds 1.
    private func classic(_ inputs: UnsafePointer<Int>, own: Int?, bits: UnsafePointer<UInt64>, _ scratch: Scratch,
                         limit: Int) -> (sum: Int, groups: Int)? {
        let length = planes.length, blocks = planes.blocks
        let p0 = bits + inputs[0] * blocks, p1 = bits + inputs[1] * blocks, p2 = bits + inputs[2] * blocks
        let p3 = bits + inputs[3] * blocks, p4 = bits + inputs[4] * blocks, p5 = bits + inputs[5] * blocks
        let p6 = bits + inputs[6] * blocks
        let counts = scratch.counts, bytes = scratch.bytes, shared = scratch.shared
        counts.update(repeating: 0, count: 8)
        bytes.update(repeating: 0, count: 8)
        if let own { counts[own] = -1 }
        let win = own == nil ? 0 : 1
        var sum = 0
        for b in 0..<blocks {
            let valid = b == blocks - 1 ? planes.lastMask : ~0
            let (t0, t1, t2) = add7(p0[b], p1[b], p2[b], p3[b], p4[b], p5[b], p6[b])
            masks(t0, t1, t2, valid: valid, into: shared)
            for j in 0...length { bytes[j] &+= byteCounts(shared[j]) }
            if b % Kernel.stride == Kernel.stride - 1 || b == blocks - 1 {
                sum = win
                for j in 0...length {
                    let c = counts[j] &+ byteSum(bytes[j])
                    counts[j] = c
                    bytes[j] = 0
                    sum &+= c &* c
                }
                // Until the guess has landed, its group's −1 may have made the sum up to 2 short.
                if sum + max(planes.count - (b + 1) * 64, 0) - 2 * win > limit { return nil }
            }
        }
        var groups = win
        for code in 0...length where counts[code] > 0 { groups += 1 }
        return (sum, groups)
    }
}

/// A word length as a type, so the kernel is compiled once per length with it as a constant.
protocol WordLength { static var value: Int { get } }
enum Length1: WordLength { static var value: Int { 1 } }
enum Length2: WordLength { static var value: Int { 2 } }
enum Length3: WordLength { static var value: Int { 3 } }
enum Length4: WordLength { static var value: Int { 4 } }
enum Length5: WordLength { static var value: Int { 5 } }
enum Length6: WordLength { static var value: Int { 6 } }
enum Length7: WordLength { static var value: Int { 7 } }
