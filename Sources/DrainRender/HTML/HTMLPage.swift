/// The frame every Drain page shares: the document head with the Content-Security-Policy
/// (nothing may be loaded from anywhere; only the page's own inline style and script run,
/// images only from `data:` URLs), the page's style sheet, its body, the escaped data block
/// the script reads, and the script. The report page and the comparison page are built on it.
public enum HTMLPage {
    public static let contentSecurityPolicy =
        "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"

    /// The whole document. `title` is text (escaped here); `body` is markup the caller built
    /// with every string escaped; `data` is JSON, made safe for a script block here.
    public static func document(title: String, style: String, body: String, data: String, script: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="\(contentSecurityPolicy)">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(HTML.escape(title))</title>
        <style>
        \(style)</style>
        </head>
        <body>
        \(body)<script type="application/json" id="drain-data">\(HTML.scriptJSON(data))</script>
        <script>
        \(script)</script>
        </body>
        </html>

        """
    }
}
