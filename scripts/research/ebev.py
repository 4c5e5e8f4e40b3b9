"""Reading and writing ebony's evaluation weights files (`Weights::to_bytes` in src/eval/learned.rs)
for the research scripts beside this one.

A file is a 32-byte header, then each phase's weights as i16, little-endian, in 1/SCALE disc. The
header holds the magic `EBEV`, the version, the layout's fingerprint, the phase count, the feature
indices a phase (version 2 stores one weight for each class of them under the board's symmetries,
version 1 one for each), and the checksum, FNV-1a over the weights. The fingerprint is FNV-1a over
a description of the features that ends with the phase count and width (u32, little-endian;
`layout_fingerprint`): FNV-1a's steps are invertible (its prime is odd), so a script that changes
the phase layout unwinds the last eight bytes and applies new ones."""
import struct

PRIME = 0x100000001B3
MASK = (1 << 64) - 1
SCALE = 64  # a weight's unit is 1/SCALE disc (`SCALE` in src/eval/learned.rs)
HEADER = struct.Struct("<4sIQIIQ")  # magic, version, fingerprint, phases, indices a phase, checksum


def fnv1a(data, h=0xCBF29CE484222325):
    for b in data:
        h = ((h ^ b) * PRIME) & MASK
    return h


def unwind(h, data):
    """The FNV-1a state before `data` was applied to reach `h`."""
    inverse = pow(PRIME, -1, 1 << 64)
    for b in reversed(data):
        h = ((h * inverse) & MASK) ^ b
    return h


def read(path):
    """(magic, version, fingerprint, phases, indices a phase, checksum) and the weights' bytes of a whole
    weights file; SystemExit names the file if it is not one."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < HEADER.size:
        raise SystemExit(f"{path}: not a whole ebony weights file")
    header = HEADER.unpack_from(data)
    body = data[HEADER.size:]
    magic, _, _, phases, _, checksum = header
    if magic != b"EBEV" or phases == 0 or len(body) % phases or fnv1a(body) != checksum:
        raise SystemExit(f"{path}: not a whole ebony weights file")
    return header, body


def read_alike(paths):
    """`read` of each of `paths`, which must be weights of one layout (the first file's version,
    fingerprint, phases and indices a phase, and as many weights); SystemExit names the first that
    is not."""
    files = [read(path) for path in paths]
    (first, body) = files[0]
    for path, (header, other) in zip(paths, files):
        if header[1:5] != first[1:5] or len(other) != len(body):
            raise SystemExit(f"{path}: another layout than {paths[0]}")
    return files


def write(path, header, body):
    """Writes `body` under `header`, its checksum replaced by the body's."""
    magic, version, fingerprint, phases, size, _ = header
    with open(path, "wb") as f:
        f.write(HEADER.pack(magic, version, fingerprint, phases, size, fnv1a(body)) + body)


def mean(blocks):
    """The weight by weight mean of equally long blocks of i16 weights, rounded to the nearest, halves
    to the even one."""
    count = len(blocks[0]) // 2
    if any(len(block) != 2 * count for block in blocks):
        raise ValueError("blocks of different lengths")
    n = len(blocks)
    out = []
    for weights in zip(*(struct.unpack(f"<{count}h", block) for block in blocks)):
        quotient, rest = divmod(sum(weights), n)
        out.append(quotient + (2 * rest > n or (2 * rest == n and quotient % 2 == 1)))
    return struct.pack(f"<{count}h", *out)
