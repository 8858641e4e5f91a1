import StrataRender

/// A small PNG made by the encoder the recorder uses (`PictureEncoding`).
enum PictureFixture {
    static var bytes: [UInt8] {
        PictureEncoding.png(of: PNGFile.Pixels(width: 2, height: 1, argb: [0xffff_0000, 0xff00_ff00])) ?? []
    }
}
