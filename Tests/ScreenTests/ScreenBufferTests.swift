import Testing
@testable import Screen

@Suite struct ScreenBufferTests {
    @Test func writingClipsToTheBufferAndTheLimit() {
        var buffer = ScreenBuffer(size: Size(width: 10, height: 2))
        let end = buffer.write("hello world", x: 3, y: 0)
        buffer.write("abcdef", x: 0, y: 1, limit: 4)
        buffer.write("ignored", x: 0, y: 5)
        #expect(end == 10)
        #expect(buffer.text == "   hello w\nabcd")
    }

    @Test func aWideCharacterTakesTwoCellsAndIsLeftOutWhenItDoesNotFit() {
        var buffer = ScreenBuffer(size: Size(width: 5, height: 1))
        let end = buffer.write("日本語", x: 0, y: 0)
        #expect(end == 4, "the third character would need columns 5 and 6")
        #expect(buffer[1, 0].isContinuation && !buffer[0, 0].isContinuation)
        #expect(buffer.line(0) == "日本 ")
        #expect("日本".columns == 4 && "✓✗·".columns == 3)
    }

    @Test func alignedWritesPadTheRowWithTheStyle() {
        var buffer = ScreenBuffer(size: Size(width: 9, height: 1))
        buffer.write("abc", in: Rect(x: 0, y: 0, width: 9, height: 1), style: .reverse, align: .right)
        #expect(buffer.line(0) == "      abc")
        #expect(buffer[0, 0].style == .reverse)
        buffer.write("abc", in: Rect(x: 0, y: 0, width: 9, height: 1), align: .center)
        #expect(buffer.line(0) == "   abc   ")
    }

    @Test func aBoxHasATitleAndReturnsItsInside() {
        var buffer = ScreenBuffer(size: Size(width: 12, height: 3))
        let inner = buffer.drawBox(buffer.bounds, title: "Notes", glyphs: .unicode)
        #expect(inner == Rect(x: 1, y: 1, width: 10, height: 1))
        #expect(buffer.text == """
            ┌─ Notes ──┐
            │          │
            └──────────┘
            """)
        var ascii = ScreenBuffer(size: Size(width: 6, height: 2))
        ascii.drawBox(ascii.bounds, glyphs: .ascii)
        #expect(ascii.text == "+----+\n+----+")
    }

    @Test func aListScrollsToKeepTheSelectionInViewWithArrows() {
        var buffer = ScreenBuffer(size: Size(width: 10, height: 3))
        buffer.drawList((1...9).map { "row \($0)" }, selected: 6, in: buffer.bounds, glyphs: .ascii)
        #expect(buffer.text == """
              row 6  ^
            > row 7
              row 8  v
            """)
        #expect(buffer[0, 1].style.reverse)
    }

    @Test func restyleKeepsTheCharacters() {
        var buffer = ScreenBuffer(size: Size(width: 3, height: 1))
        buffer.write("abc", x: 0, y: 0)
        buffer.restyle(Rect(x: 1, y: 0, width: 1, height: 1)) { $0.bold = true }
        #expect(buffer.line(0) == "abc" && buffer[1, 0].style.bold && !buffer[0, 0].style.bold)
    }
}

@Suite struct LayoutTests {
    @Test func slicingNeverGoesNegative() {
        let rect = Rect(x: 2, y: 1, width: 10, height: 4)
        let (top, rest) = rect.sliceTop(6)
        #expect(top.height == 4 && rest.height == 0)
        let (right, left) = rect.sliceRight(3)
        #expect(right == Rect(x: 9, y: 1, width: 3, height: 4) && left == Rect(x: 2, y: 1, width: 7, height: 4))
        #expect(rect.inset(dx: 6, dy: 1).width == 0)
        #expect(Size(width: 40, height: 12).fits(Size(width: 40, height: 12)) && !Size(width: 39, height: 30).fits(Size(width: 40, height: 12)))
    }

    @Test func listWindowKeepsTheSelectionAndTheNewest() {
        #expect(ListWindow.visible(count: 3, selected: 2, height: 5) == 0..<3)
        #expect(ListWindow.visible(count: 20, selected: 19, height: 5) == 15..<20)
        #expect(ListWindow.visible(count: 20, selected: 0, height: 5) == 0..<5)
        #expect(ListWindow.visible(count: 20, selected: 10, height: 4) == 8..<12)
        #expect(ListWindow.tail(count: 20, height: 1) == 19..<20)
    }
}

@Suite struct TextTests {
    @Test func wrapBreaksAtSpacesAndSplitsLongWords() {
        #expect(Text.wrap("the quick brown fox", width: 9) == ["the quick", "brown fox"])
        #expect(Text.wrap("abcdefghij", width: 4) == ["abcd", "efgh", "ij"])
        #expect(Text.wrap("", width: 4) == [""])
    }

    @Test func truncateEndsWithAnEllipsisAndPadFills() {
        #expect(Text.truncate("qiktionary", to: 6) == "qikti…")
        #expect(Text.truncate("qiktionary", to: 6, ellipsis: "...") == "qik...")
        #expect(Text.truncate("short", to: 6) == "short")
        #expect(Text.pad("ab", to: 4) == "ab  " && Text.pad("abcdef", to: 4) == "abc…")
    }

    @Test func barsFillInProportionAndShowAnyProgress() {
        #expect(Bar.render(fraction: 0.5, width: 8, glyphs: .ascii) == "####....")
        #expect(Bar.render(fraction: 0.01, width: 8, glyphs: .ascii) == "#.......")
        #expect(Bar.render(fraction: 0, width: 4, glyphs: .unicode) == "░░░░")
        #expect(Bar.render(fraction: .nan, width: 2, glyphs: .ascii) == "..")
    }
}

@Suite struct ScriptedTerminalTests {
    @Test func itReplaysEventsThenInterrupts() {
        let terminal = ScriptedTerminal(size: Size(width: 10, height: 5), events: [.key(.enter), .resize(Size(width: 20, height: 6))])
        #expect(terminal.nextEvent(timeoutMilliseconds: 0) == .key(.enter))
        #expect(terminal.nextEvent(timeoutMilliseconds: 0) == .resize(Size(width: 20, height: 6)))
        #expect(terminal.size == Size(width: 20, height: 6))
        #expect(terminal.nextEvent(timeoutMilliseconds: 0) == .interrupted)
        terminal.draw(ScreenBuffer(size: terminal.size))
        #expect(terminal.drawn.count == 1)
    }
}
