# splice.awk — a Markdown file with its generated blocks replaced:
#   <!-- BEGIN results KEY -->
#   (replaced by the file DIR/KEY.md, between blank lines; a KEY without a
#    file is left as it is)
#   <!-- END results KEY -->
#   awk -v dir=DIR -f plots/splice.awk README.md > new
# Exits 1 (the caller keeps the old file) when a BEGIN has no END.
function flush(   l) { while ((getline l < (dir "/" key ".md")) > 0) buf = buf l "\n"; close(dir "/" key ".md") }
/^<!-- BEGIN results [A-Za-z0-9_]+ -->$/ && !inside {
    print; inside = 1; key = $4; buf = ""; old = ""
    have = (getline probe < (dir "/" key ".md")) > 0; close(dir "/" key ".md")
    next
}
inside && $0 == "<!-- END results " key " -->" {
    if (have) { flush(); printf "\n%s\n", buf } else printf "%s", old
    print; inside = 0; next
}
inside { old = old $0 "\n"; next }
{ print }
END { if (inside) exit 1 }
