import DrainTrace
import DrainYAML

extension YAMLError.Kind {
    /// A number without a `source`, or with a blank one (`ModelError.Problem.missingSource`).
    static let missingSource = YAMLError.Kind(ModelError.Problem.missingSource.rawValue)
    /// A number below zero (`ModelError.Problem.negativeValue`).
    static let negativeValue = YAMLError.Kind(ModelError.Problem.negativeValue.rawValue)
}

extension Sourced {
    /// Reads `{ value: 0.26, source: "…" }`: a bare number, a missing or blank source and a
    /// negative value are each refused at their key, so that a model file names where every
    /// number comes from.
    public init(from decoder: any Decoder) throws {
        if let bare = try? decoder.singleValueContainer().decode(String.self) {
            throw decoder.yamlError(
                .missingSource, "a number needs its source: write { value: \(UntrustedText.escaped(bare)), source: \"…\" }")
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let value = try container.decode(Double.self, forKey: .value)
        guard value >= 0 else {
            throw decoder.yamlError(.negativeValue, "must not be negative, found \(value)", key: "value")
        }
        guard container.contains(.source), try !container.decodeNil(forKey: .source) else {
            throw decoder.yamlError(.missingSource, "missing source: every number says where it comes from", key: "source")
        }
        let source = try container.decode(String.self, forKey: .source)
        guard source.contains(where: { !$0.isWhitespace }) else {
            throw decoder.yamlError(.missingSource, "empty source: every number says where it comes from", key: "source")
        }
        self.init(value, source: source)
    }
}
