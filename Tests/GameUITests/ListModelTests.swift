import Screen
import Testing
@testable import GameUI

/// A list screen's model: the selection stays within what was loaded, the keys move it as the
/// screens promise, and an open item scrolls only by the keys its screen gives it.
@Suite struct ListModelTests {
    @Test func aLoadedListKeepsTheSelectionWithinItAndAnEmptyOneClosesItsItem() {
        var list = ListModel(["a", "b", "c", "d"])
        list.selection = 3
        let opened = list.openSelected()
        #expect(opened && list.open && list.scroll == 0)
        list.scroll = 5
        list.show(["a", "b"])
        #expect(list.selection == 1 && list.selected == "b")
        #expect(list.open, "a shorter list keeps the item open")
        list.show([])
        #expect(list.selection == 0 && list.selected == nil && !list.open)
        let openedEmpty = list.openSelected()
        #expect(!openedEmpty, "nothing to open")
    }

    @Test func theArrowPageAndEndKeysMoveTheSelectionAndNothingElseDoes() {
        var list = ListModel(Array(0..<25))
        do {
            let took = list.move(.down)
            #expect(took && list.selection == 1)
        }
        do {
            let took = list.move(.character("j"))
            #expect(took && list.selection == 2)
        }
        do {
            let took = list.move(.pageDown)
            #expect(took && list.selection == 12)
        }
        do {
            let took = list.move(.end)
            #expect(took && list.selection == 24)
        }
        do {
            let took = list.move(.down)
            #expect(took && list.selection == 24, "never past the last")
        }
        do {
            let took = list.move(.pageUp)
            #expect(took && list.selection == 14)
        }
        do {
            let took = list.move(.home)
            #expect(took && list.selection == 0)
        }
        do {
            let took = list.move(.up)
            #expect(took && list.selection == 0, "never before the first")
        }
        do {
            let took = list.move(.character("x"))
            #expect(!took && list.selection == 0, "not a key that moves")
        }
    }

    @Test func anOpenItemScrollsByLinesAndByPagesOnlyWhereItsScreenHasPages() {
        var list = ListModel(["fact"])
        _ = list.openSelected()
        do {
            let took = list.scrollOpen(.down, page: 0)
            #expect(took && list.scroll == 1)
        }
        do {
            let took = list.scrollOpen(.pageDown, page: 0)
            #expect(!took && list.scroll == 1, "the reading list has no pages")
        }
        do {
            let took = list.scrollOpen(.pageDown, page: 10)
            #expect(took && list.scroll == 11)
        }
        do {
            let took = list.scrollOpen(.pageUp, page: 10)
            #expect(took && list.scroll == 1)
        }
        do {
            let took = list.scrollOpen(.up, page: 10)
            #expect(took && list.scrollOpen(.up, page: 10) && list.scroll == 0, "never above the top")
        }
    }
}
