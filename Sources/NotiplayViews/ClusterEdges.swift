/// Whether a cell's character, written beside its neighbours, would join one of them into a
/// single character on a terminal that groups text as Unicode says (as Swift does, and as
/// grapheme-aware terminals do): then it would take the columns of one, and the rest of the
/// line would shift.
///
/// Within a text Swift keeps such scalars with their neighbour, so a character made of them
/// alone only comes from the edge of a text: a text that starts with a combining mark, ends with
/// a joiner, or a flag cut in half by a cell.
enum ClusterEdges {
    /// `character` as it can be written without joining its neighbours: `nil` when it begins
    /// with a scalar that extends what comes before it (a mark, a joiner, an emoji modifier, a
    /// Hangul vowel or final consonant) or is a lone regional indicator or prepended letter;
    /// otherwise the character without the joiners and viramas it ends with.
    static func standalone(_ character: Character) -> Character? {
        let scalars = Array(character.unicodeScalars)
        guard let first = scalars.first, !extendsPrevious(first) else { return nil }
        if scalars.count == 1 && (isRegionalIndicator(first) || isPrepend(first)) { return nil }
        var kept = scalars
        while kept.count > 1, let last = kept.last {
            if last.value == 0x200D || isLinker(last) {
                kept.removeLast()
            } else if last.properties.isGraphemeExtend, let linker = kept.lastIndex(where: isLinker),
                kept[(linker + 1)...].allSatisfy({ $0.properties.isGraphemeExtend })
            {
                kept.removeSubrange(linker...)  // marks after a virama still link it to the next
            } else {
                break
            }
        }
        guard kept.count < scalars.count else { return character }
        var text = String.UnicodeScalarView()
        text.append(contentsOf: kept)
        return String(text).first
    }

    /// Scalars that join the character before them (Grapheme_Cluster_Break Extend, SpacingMark,
    /// ZWJ, and the Hangul V and T jamo).
    static func extendsPrevious(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        if properties.isGraphemeExtend || properties.isEmojiModifier { return true }
        if properties.generalCategory == .spacingMark || properties.generalCategory == .nonspacingMark
            || properties.generalCategory == .enclosingMark
        {
            return true
        }
        switch scalar.value {
        case 0x200D, 0x0E33, 0x0EB3, 0x1160...0x11FF, 0xD7B0...0xD7FF: return true
        default: return false
        }
    }

    static func isRegionalIndicator(_ scalar: Unicode.Scalar) -> Bool {
        (0x1F1E6...0x1F1FF).contains(scalar.value)
    }

    /// Grapheme_Cluster_Break Prepend: joins the character after it.
    static func isPrepend(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0600...0x0605, 0x06DD, 0x070F, 0x0890...0x0891, 0x08E2, 0x0D4E, 0x110BD, 0x110CD, 0x111C2...0x111C3,
            0x1193F, 0x11941, 0x11A3A, 0x11A84...0x11A89, 0x11D46, 0x11F02:
            return true
        default: return false
        }
    }

    /// The Indic viramas that link a consonant to the next (Indic_Conjunct_Break Linker).
    static func isLinker(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x094D, 0x09CD, 0x0ACD, 0x0B4D, 0x0C4D, 0x0D4D: return true
        default: return false
        }
    }
}
