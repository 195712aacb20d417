import NotiplayCenter
import Testing
import NotiplayCenterClient

/// Cutting a byte stream into frames, whatever the chunks.
@Suite struct ProtocolFrameTests {
    let first = Array(#"{"v":1,"id":1,"op":"ping"}"#.utf8)
    let second = Array(#"{"v":1,"id":2,"op":"history","limit":5,"note":"é ✓"}"#.utf8)

    @Test func twoFramesSplitAtEveryPointComeOutWhole() throws {
        let stream = try FrameWriter.frame(first) + FrameWriter.frame(second)
        for split in 0...stream.count {
            for secondSplit in split...stream.count {
                var reader = FrameReader()
                var frames: [[UInt8]] = []
                for chunk in [stream[..<split], stream[split..<secondSplit], stream[secondSplit...]] {
                    reader.append(chunk)
                    while let frame = try reader.nextFrame() { frames.append(frame) }
                }
                #expect(frames == [first, second], "split at \(split) and \(secondSplit)")
                #expect(!reader.isMidFrame)
            }
        }
    }

    @Test func byteAtATimeIsMidFrameUntilTheLastByte() throws {
        let stream = try FrameWriter.frame(first)
        var reader = FrameReader()
        for (index, byte) in stream.enumerated() {
            reader.append([byte])
            let frame = try reader.nextFrame()
            if index == stream.count - 1 {
                #expect(frame == first)
                #expect(!reader.isMidFrame)
            } else {
                #expect(frame == nil)
                #expect(reader.isMidFrame)
            }
        }
    }

    @Test func theHeaderIsBigEndian() throws {
        let frame = try FrameWriter.frame([UInt8](repeating: 0x20, count: 0x0102_03))
        #expect(Array(frame.prefix(4)) == [0x00, 0x01, 0x02, 0x03])
    }

    @Test func aLengthOverTheLimitIsRefusedAsSoonAsTheHeaderIsIn() throws {
        let limit = CenterProtocol.maximumFrameLength
        var reader = FrameReader()
        let over = limit + 1
        reader.append([UInt8(over >> 24), UInt8(over >> 16 & 0xFF), UInt8(over >> 8 & 0xFF)])
        #expect(try reader.nextFrame() == nil)
        reader.append([UInt8(over & 0xFF)])
        #expect(throws: FrameError.oversized(length: over, limit: limit)) { try reader.nextFrame() }
        // The stream is lost: it keeps saying so.
        #expect(throws: FrameError.oversized(length: over, limit: limit)) { try reader.nextFrame() }
    }

    @Test func aLengthAtTheLimitIsAccepted() throws {
        let limit = CenterProtocol.maximumFrameLength
        var reader = FrameReader()
        reader.append([UInt8(limit >> 24), UInt8(limit >> 16 & 0xFF), UInt8(limit >> 8 & 0xFF), UInt8(limit & 0xFF)])
        #expect(try reader.nextFrame() == nil)
        #expect(reader.bufferedByteCount == 4)
    }

    @Test func theWriterRefusesABodyOverTheLimit() {
        #expect(throws: FrameError.oversized(length: 11, limit: 10)) {
            try FrameWriter.frame([UInt8](repeating: 0x20, count: 11), maximumLength: 10)
        }
    }

    @Test func bodiesThatAreNotUTF8JSONAreFrameErrors() {
        #expect(throws: FrameError.invalidUTF8) { try CenterMessageCodec.decodeRequest([0x7B, 0xFF, 0x7D]) }
        #expect(throws: FrameError.invalidUTF8) { try CenterMessageCodec.decodeRequest([0x22, 0xED, 0xA0, 0x80, 0x22]) }
        for text in ["", "{", "hello", #"{"v" 1}"#, "[1, 2", #"{"id": 1} trailing"#] {
            #expect(throws: FrameError.self, "\(text)") { try CenterMessageCodec.decodeRequest(Array(text.utf8)) }
            do {
                _ = try CenterMessageCodec.decodeRequest(Array(text.utf8))
            } catch {
                guard case .invalidJSON = error else { Issue.record("\(text): \(error)"); continue }
            }
        }
    }
}
