# Sourced (bash): xml_text, a filter that gives an XML attribute's text as a reader wants it: the five
# entities decoded (&amp; last, so "&amp;lt;" stays "&lt;"), and line breaks and tabs (&#10;, &#13;,
# &#9;) as spaces, so a message stays on one line and a tab-separated record whole. Used by
# summarise_run.sh (summary.md's cells) and compare_runs.sh (a failure's first line).
xml_text() { sed "s/&lt;/</g; s/&gt;/>/g; s/&quot;/\"/g; s/&apos;/'/g; s/&#10;/ /g; s/&#13;/ /g; s/&#9;/ /g; s/&amp;/\&/g"; }
