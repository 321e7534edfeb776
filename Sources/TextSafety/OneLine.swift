/// Text made safe to print as one line, whatever it holds: control characters (line breaks among
/// them) and the Unicode line and paragraph separators are shown as '?'. For messages that name
/// what a hostile or damaged file or folder holds.
public func oneLine(_ text: String) -> String {
    String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
        scalar.properties.generalCategory == .control || ["\u{2028}", "\u{2029}"].contains(scalar) ? "?" : scalar
    }))
}
