/// A terminal size in columns and rows.
public struct Size: Sendable, Hashable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// True when both sides are at least those of `minimum`.
    public func fits(_ minimum: Size) -> Bool { width >= minimum.width && height >= minimum.height }

    public var description: String { "\(width)×\(height)" }
}

/// A rectangle of cells; layouts are built by slicing rectangles off a larger one.
public struct Rect: Sendable, Hashable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    public init(_ size: Size) { self.init(x: 0, y: 0, width: size.width, height: size.height) }

    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var isEmpty: Bool { width == 0 || height == 0 }

    /// The rectangle shrunk by `dx` columns on each side and `dy` rows at top and bottom.
    public func inset(dx: Int, dy: Int) -> Rect {
        Rect(x: x + dx, y: y + dy, width: width - 2 * dx, height: height - 2 * dy)
    }

    /// `rows` rows off the top (fewer when there are not that many), and what remains.
    public func sliceTop(_ rows: Int) -> (slice: Rect, rest: Rect) {
        let n = min(max(0, rows), height)
        return (Rect(x: x, y: y, width: width, height: n), Rect(x: x, y: y + n, width: width, height: height - n))
    }

    public func sliceBottom(_ rows: Int) -> (slice: Rect, rest: Rect) {
        let n = min(max(0, rows), height)
        return (Rect(x: x, y: maxY - n, width: width, height: n), Rect(x: x, y: y, width: width, height: height - n))
    }

    public func sliceLeft(_ columns: Int) -> (slice: Rect, rest: Rect) {
        let n = min(max(0, columns), width)
        return (Rect(x: x, y: y, width: n, height: height), Rect(x: x + n, y: y, width: width - n, height: height))
    }

    public func sliceRight(_ columns: Int) -> (slice: Rect, rest: Rect) {
        let n = min(max(0, columns), width)
        return (Rect(x: maxX - n, y: y, width: n, height: height), Rect(x: x, y: y, width: width - n, height: height))
    }

    /// One row of the rectangle (0 is its top row).
    public func row(_ index: Int) -> Rect { Rect(x: x, y: y + index, width: width, height: 1) }
}
