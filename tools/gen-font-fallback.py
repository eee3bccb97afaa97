#!/usr/bin/python3
"""Writes fonts/fallback_table.c: the advances fonts/ gives a character that
no installed face has (the metric fallback, fonts/fonts.h).

    /usr/bin/python3 tools/gen-font-fallback.py NOTO_DIR CJK_FACE > fonts/fallback_table.c

Run offline, never at build or run time; the C table it writes is committed.
It needs Debian's python3-fonttools (its Unicode script property) and the
fonts it measures, which the product does not need:

  NOTO_DIR  the faces of Debian 12's fonts-noto-core 20201225-1, for instance
            unpacked without installing them:
              apt-get download fonts-noto-core
              dpkg-deb -x fonts-noto-core_*.deb /tmp/noto
              NOTO_DIR=/tmp/noto/usr/share/fonts/truetype/noto
  CJK_FACE  /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc of Debian
            12's fonts-noto-cjk 1:20220127 (its first face, JP), for the
            characters of Han, kana, Hangul and Bopomofo that are not wide

What it writes:

  wide ranges   the code points whose East Asian Width (UAX #11, Python's
                unicodedata) is W or F, marks (Mn, Me) and format characters
                (Cf) left out, each with the mean advance the CJK face gives
                the wide characters of its script (one em for Han, kana and
                CJK punctuation; 0.92 em for Hangul) or one em where it has
                none: fonts/ measures them so whatever face draws them, or
                none does.
  scripts       per Unicode script (ISO 15924 code, as fontTools and HarfBuzz
                name them), its English name and the mean advance in
                thousandths of an em of its letters, digits, punctuation and
                spacing marks that are not wide and have no compatibility
                decomposition (presentation forms, half-width forms and the
                like are variants, not what text is written with), in the
                Regular face of Noto that has the most of them (Sans before
                Serif). Common (Zyyy) is measured over Noto Sans, Noto Sans
                Symbols, Symbols 2 and Math together, each character in the
                first that has it. A script no face measured gets the median
                of the measured ones, and says so.

It also prints to stderr what the CJK face gives the wide characters of each
script: what a covering face really measures.
"""
import glob
import os
import statistics
import sys
import unicodedata

from fontTools import unicodedata as fu
from fontTools.ttLib import TTCollection, TTFont

NOT_SPACING = {"Mn", "Me", "Cf", "Cc", "Cs", "Co", "Cn", "Zl", "Zp"}


# EastAsianWidth.txt's @missing lines: unassigned code points here are W.
UNASSIGNED_WIDE = ((0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0x20000, 0x2FFFD),
                   (0x30000, 0x3FFFD))


def wide(cp):
    if unicodedata.category(chr(cp)) == "Cn":  # unicodedata says W for some
        return any(lo <= cp <= hi for lo, hi in UNASSIGNED_WIDE)
    return unicodedata.east_asian_width(chr(cp)) in ("W", "F")


def counted(cp):
    """A character whose advance the mean of its script counts."""
    ch = chr(cp)
    if unicodedata.category(ch) in NOT_SPACING or wide(cp):
        return False
    return not unicodedata.decomposition(ch).startswith("<")


class Face:
    def __init__(self, path, font):
        self.path = path
        self.name = os.path.basename(path)
        self.cmap = font.getBestCmap() or {}
        self.hmtx = font["hmtx"]
        self.upem = font["head"].unitsPerEm

    def advance(self, cp):
        return self.hmtx[self.cmap[cp]][0] / self.upem


def load(path):
    if path.endswith(".ttc"):
        return Face(path, TTCollection(path).fonts[0])
    return Face(path, TTFont(path, lazy=True))


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    noto_dir, cjk_path = sys.argv[1], sys.argv[2]
    paths = sorted(glob.glob(os.path.join(noto_dir, "NotoS*-Regular.ttf")))
    paths = [p for p in paths if "UI-" not in os.path.basename(p)
             and "Display" not in os.path.basename(p) and "Mono" not in os.path.basename(p)]
    if not paths:
        sys.exit("no Noto*-Regular.ttf in " + noto_dir)
    faces = [load(p) for p in paths]
    cjk = load(cjk_path)

    # Per script, the face with most of its counted characters.
    best = {}
    for face in faces + [cjk]:
        per = {}
        for cp in face.cmap:
            if counted(cp):
                sc = fu.script(chr(cp))
                per.setdefault(sc, []).append(cp)
        for sc, cps in per.items():
            sans = "NotoSans" in face.name
            key = (len(cps), sans)
            if sc not in best or key > best[sc][0]:
                best[sc] = (key, face, cps)

    means = {}
    for sc, (_, face, cps) in best.items():
        if sc in ("Zyyy", "Zinh", "Zzzz"):
            continue
        means[sc] = (statistics.fmean(face.advance(cp) for cp in cps), face.name, len(cps))

    # Common: symbols and punctuation from the faces made for them.
    common_faces = [f for f in faces if f.name in (
        "NotoSans-Regular.ttf", "NotoSansSymbols-Regular.ttf",
        "NotoSansSymbols2-Regular.ttf", "NotoSansMath-Regular.ttf")]
    adv = {}
    for face in common_faces:
        for cp in face.cmap:
            if cp not in adv and counted(cp) and fu.script(chr(cp)) == "Zyyy":
                adv[cp] = face.advance(cp)
    means["Zyyy"] = (statistics.fmean(adv.values()),
                     " + ".join(f.name for f in common_faces), len(adv))

    default = statistics.median(m for m, _, _ in means.values())

    # What the CJK face gives the wide characters of each script: their
    # advance, whatever face draws them (or none does).
    wide_adv = {}
    for sc in sorted({fu.script(chr(cp)) for cp in cjk.cmap if wide(cp)}):
        advs = [cjk.advance(cp) for cp in cjk.cmap
                if wide(cp) and fu.script(chr(cp)) == sc
                and unicodedata.category(chr(cp)) not in NOT_SPACING]
        if not advs:
            continue
        wide_adv[sc] = round(statistics.fmean(advs) * 1000)
        print("%s wide in %s: %d characters, mean %.3f em, min %.3f, max %.3f, "
              "%.1f%% at 1 em" % (sc, cjk.name, len(advs), statistics.fmean(advs), min(advs),
                                  max(advs), 100 * sum(a == 1 for a in advs) / len(advs)),
              file=sys.stderr)

    # Wide ranges, each with the advance of its script's wide characters in
    # the CJK face (one em where the face has none of them).
    ranges = []
    for cp in range(0x110000):
        if 0xD800 <= cp < 0xE000:
            continue
        if wide(cp) and unicodedata.category(chr(cp)) not in ("Mn", "Me", "Cf"):
            adv = wide_adv.get(fu.script(chr(cp)), 1000)
            if ranges and ranges[-1][1] == cp - 1 and ranges[-1][2] == adv:
                ranges[-1][1] = cp
            else:
                ranges.append([cp, cp, adv])

    out = sys.stdout
    out.write("/* fonts/: the metric fallback's tables (fonts.h). GENERATED by\n"
              " * tools/gen-font-fallback.py: do not edit, run it again.\n"
              " *\n"
              " * Wide: East Asian Width W or F (Unicode %s, Python %d.%d's unicodedata),\n"
              " * marks and format characters left out, each range with the mean advance\n"
              " * in 1/1000 em that the CJK face below gives its script's wide characters\n"
              " * (Han, kana, CJK punctuation 1000, Hangul 920), 1000 for scripts it lacks.\n"
              " * Scripts: mean advance, in 1/1000 em, of each script's letters, digits,\n"
              " * punctuation and spacing marks (not wide, no compatibility decomposition),\n"
              " * measured in the faces of Debian 12's fonts-noto-core 20201225-1 and,\n"
              " * for Han, kana, Hangul and Bopomofo, fonts-noto-cjk 1:20220127's\n"
              " * %s (its first face); the face and the count of\n"
              " * characters are beside each. Scripts no face measured take the median\n"
              " * of the measured ones, %d.\n"
              " */\n" % (unicodedata.unidata_version, sys.version_info[0], sys.version_info[1],
                         cjk.name, round(default * 1000)))
    out.write('#include "fonts/fallback.h"\n\n')
    out.write("const fonts_range fonts_wide_ranges[] = {\n")
    for lo, hi, adv in ranges:
        out.write("    {0x%04X, 0x%04X, %d},\n" % (lo, hi, adv))
    out.write("};\n")
    out.write("const size_t fonts_n_wide_ranges = sizeof fonts_wide_ranges / "
              "sizeof fonts_wide_ranges[0];\n\n")
    out.write("const int fonts_default_advance = %d; /* 1/1000 em */\n\n" % round(default * 1000))
    out.write("/* Sorted by code, for a binary search. */\n")
    out.write("const fonts_script_advance fonts_script_advances[] = {\n")
    codes = sorted(set(fu.Scripts.NAMES) | set(means))
    for sc in codes:
        name = fu.script_name(sc, default=sc).replace("_", " ")
        if sc in means:
            m, face, n = means[sc]
            out.write('    {"%s", "%s", %d, 1}, /* %s, %d characters */\n'
                      % (sc, name, round(m * 1000), face, n))
        else:
            out.write('    {"%s", "%s", %d, 0},\n' % (sc, name, round(default * 1000)))
    out.write("};\n")
    out.write("const size_t fonts_n_script_advances = sizeof fonts_script_advances / "
              "sizeof fonts_script_advances[0];\n")


if __name__ == "__main__":
    main()
