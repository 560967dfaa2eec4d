/// The colour of each energy category and radio state, the same in every output.
public enum CategoryPalette {
    /// Colours of the known categories (a colour-blind-aware qualitative palette).
    private static let known: [String: String] = [
        "cpu": "#4e79a7", "radio": "#e15759", "disk": "#f28e2b", "polling": "#b07aa1",
        "display": "#59a14f", "location": "#edc948", "sensors": "#76b7b2",
    ]
    /// For category names outside `EnergyCategory`, handed out in order.
    private static let spare = ["#9c755f", "#ff9da7", "#bab0ac", "#86bcb6", "#d4a6c8", "#8cd17d"]

    /// One colour per name, in the order given: known categories keep their colour, others
    /// take the spare colours in turn.
    public static func colors(for categories: [String]) -> [String] {
        var nextSpare = 0
        return categories.map { name in
            if let color = known[name] { return color }
            defer { nextSpare += 1 }
            return spare[nextSpare % spare.count]
        }
    }

    /// ANSI SGR foreground code of a category for the terminal.
    static func ansi(for category: String) -> String {
        switch category {
        case "cpu": "34"
        case "radio": "31"
        case "disk": "33"
        case "polling": "35"
        case "display": "32"
        case "location": "93"
        case "sensors": "36"
        default: "37"
        }
    }

    /// The radio states of the pricer (`RadioState`), darker for more power.
    private static let radioStates: [String: String] = [
        "promotion": "#b8325b", "active": "#e15759", "fach": "#f08a8b", "tail": "#f6b8b8", "idle": "#d9d9d9",
    ]

    /// A colour per radio state name: known states by energy, others from the spare list in
    /// name order.
    public static func radioColors(for states: [String]) -> [String: String] {
        var colors: [String: String] = [:]
        var nextSpare = 0
        for state in Set(states).sorted() {
            if let color = radioStates[state] {
                colors[state] = color
            } else {
                colors[state] = spare[nextSpare % spare.count]
                nextSpare += 1
            }
        }
        return colors
    }
}
