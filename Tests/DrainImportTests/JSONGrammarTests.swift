import DrainTrace
import Testing

@testable import DrainImport

/// Unknown fields may hold any JSON value; the scanner must walk the whole grammar to
/// find where they end, and reject what is not JSON inside them too.
@Suite("JSON grammar inside unknown fields")
struct JSONGrammarTests {
    @Test(
        "every kind of JSON value is skipped, and the fields after it still count",
        arguments: [
            #"{}"#, #"[]"#, #"{ }"#, #"[ ]"#, #"true"#, #"false"#, #"null"#, #"0"#, #"-0"#, #"-1.5e+3"#, #"2E-7"#, #"1e400"#,
            #""""#, #""\"\\\/\b\f\n\r\t""#, #""\u00e9\ud83d\ude00\uD800""#, #""}{][,:""#,
            #"{"a":[true,false,null,-1.5e+3,"x",{"b":{}}],"c":{"d":[[],[[]]]}}"#,
            #" [ 1 , { "k" : [ "v" , null ] } , 3 ] "#,
        ])
    func skipped(_ value: String) throws {
        let input = try importTrace([header, #"{"t":1,"type":"cpu","u":"# + value + #","dur":0.25,"name":"after"}"#])
        #expect(input.timeline[0].duration == 250_000_000)
        #expect(input.timeline.text(input.timeline[0].label) == "after")
        #expect(input.info.diagnostics.entry("unknown-field")?.count == 1)
    }

    @Test(
        "what is not JSON inside an unknown field is an error at its column",
        arguments: [
            (#"[1,]"#, 4, "expected a value (a string, number, object, array, true, false or null), found ']'"),
            (#"{"a":1,}"#, 8, "expected '\"' to start a field name, found '}'"),
            (#"{"a" 1}"#, 6, "expected ':' after the field name, found '1'"),
            (#"[1 2]"#, 4, "expected ',' or ']' after an array element, found '2'"),
            (#"{'a':1}"#, 2, "expected '\"' to start a field name, found '''"),
            (#"tru"#, 1, "expected a value (a string, number, object, array, true, false or null)"),
            (#"nulls"#, 5, "expected ',' or '}' after a field value, found 's'"),
            (#".5"#, 1, "expected a value (a string, number, object, array, true, false or null), found '.'"),
            (#"1.e5"#, 3, "invalid number: expected a digit after '.'"),
            (#""\u12"+"34""#, 6, "invalid \\u escape: expected 4 hexadecimal digits"),
        ] as [(String, Int, String)])
    func rejected(_ value: String, _ offsetInValue: Int, _ reason: String) throws {
        let prefix = #"{"t":1,"type":"cpu","dur":1,"u":"#
        let failure = try badData([header, prefix + value + "}"])
        #expect(failure?.location == "line 2, column \(prefix.utf8.count + offsetInValue)")
        #expect(failure?.reason == reason)
    }
}
