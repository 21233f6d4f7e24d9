/// A provider some of whose answers never change once published (MET Norway's CAP files): the host keeps such an answer
/// once fetched and never asks for it again.
public protocol PublishedFiles: Sendable {
    /// True when `request` asks for a file that never changes once published.
    func isPublishedFile(_ request: HTTPRequest) -> Bool
}
