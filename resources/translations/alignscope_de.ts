<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de">
<context>
    <name>AlignmentComparisonFigure</name>
    <message>
        <source>alpha, merged to words</source>
        <translation>alpha, zu Wörtern zusammengefasst</translation>
    </message>
    <message>
        <source>attention weight alpha</source>
        <translation>Gewicht alpha</translation>
    </message>
    <message>
        <source>alpha A − alpha B</source>
        <translation>alpha A − alpha B</translation>
    </message>
    <message>
        <source>A − B (%1 of %2 rows agree)</source>
        <translation>A − B (%1 von %2 Zeilen stimmen überein)</translation>
    </message>
    <message>
        <source>source words</source>
        <translation>Quellwörter</translation>
    </message>
    <message>
        <source>source tokens</source>
        <translation>Quelltokens</translation>
    </message>
    <message>
        <source>target words</source>
        <translation>Zielwörter</translation>
    </message>
    <message>
        <source>target tokens</source>
        <translation>Zieltokens</translation>
    </message>
    <message>
        <source>%1: no row %2</source>
        <translation>%1: keine Zeile %2</translation>
    </message>
    <message>
        <source>the targets differ at row %1: no difference</source>
        <translation>die Ziele unterscheiden sich in Zeile %1: keine Differenz</translation>
    </message>
</context>
<context>
    <name>AlignmentFigure</name>
    <message>
        <source>encoder states h_i (one column per source token)</source>
        <translation>Encoder-Zustände h_i (eine Spalte je Quelltoken)</translation>
    </message>
    <message>
        <source>encoder states h_i
(one column per source token)</source>
        <translation>Encoder-Zustände h_i
(eine Spalte je Quelltoken)</translation>
    </message>
    <message>
        <source> (signed)</source>
        <translation> (mit Vorzeichen)</translation>
    </message>
    <message>
        <source>alpha (uniform: no attention)</source>
        <translation>alpha (gleichverteilt: keine Attention)</translation>
    </message>
    <message>
        <source>attention weight alpha</source>
        <translation>Gewicht alpha</translation>
    </message>
    <message>
        <source>source words</source>
        <translation>Quellwörter</translation>
    </message>
    <message>
        <source>merged from pieces: a word&apos;s columns summed</source>
        <translation>aus Teilstücken zusammengefügt: die Spalten eines Wortes summiert</translation>
    </message>
    <message>
        <source>source</source>
        <translation>Quelle</translation>
    </message>
    <message>
        <source>%1   (word? = not in the model&apos;s vocabulary: read as &lt;unk&gt;)</source>
        <translation>%1   (Wort? = nicht im Vokabular des Modells: gelesen als &lt;unk&gt;)</translation>
    </message>
    <message>
        <source>given</source>
        <translation>vorgegeben</translation>
    </message>
    <message>
        <source>beam hypothesis %1</source>
        <translation>Beam-Hypothese %1</translation>
    </message>
    <message>
        <source>decoded</source>
        <translation>dekodiert</translation>
    </message>
    <message>
        <source>%1 of %2 forced</source>
        <translation>%1 von %2 erzwungen</translation>
    </message>
    <message>
        <source>target</source>
        <translation>Ziel</translation>
    </message>
    <message>
        <source>%1, words: rows averaged</source>
        <translation>%1, Wörter: Zeilen gemittelt</translation>
    </message>
    <message>
        <source>fwd →</source>
        <translation>vorw. →</translation>
    </message>
    <message>
        <source>← bwd</source>
        <translation>← rückw.</translation>
    </message>
    <message>
        <source>source %1 &apos;%2&apos; → step %3 &apos;%4&apos;: %5 = %6</source>
        <translation>Quelle %1 ‚%2‘ → Schritt %3 ‚%4‘: %5 = %6</translation>
    </message>
    <message>
        <source>h_%1 (%2), dimension %3: %4</source>
        <translation>h_%1 (%2), Dimension %3: %4</translation>
    </message>
</context>
<context>
    <name>BeamPanel</name>
    <message>
        <source>score · hypothesis (score = log P / length, higher is better; ↑↓ to pick)</source>
        <translation>Score · Hypothese (Score = log P / Länge, höher ist besser; ↑↓ zum Auswählen)</translation>
    </message>
</context>
<context>
    <name>CandidatesView</name>
    <message>
        <source>Next-token candidates of this step. Click one, press its number (1-9), or pick it with Up/Down and Enter, to force it and decode on from there. With a sub-word model, a piece starting with ▁ begins a word; one without it continues the word before.</source>
        <translation>Kandidaten für das nächste Token in diesem Schritt. Klicken Sie einen an, drücken Sie seine Nummer (1–9) oder wählen Sie ihn mit ↑/↓ und Enter, um ihn zu erzwingen und von dort weiterzudekodieren. Bei einem Subword-Modell beginnt ein Teilstück mit ▁ ein neues Wort; eines ohne ▁ setzt das vorige Wort fort.</translation>
    </message>
    <message>
        <source>not in top %1: %2</source>
        <translation>nicht unter den ersten %1: %2</translation>
    </message>
    <message>
        <source>Step to see the next-token candidates</source>
        <translation>Gehen Sie einen Schritt weiter, um die Kandidaten für das nächste Token zu sehen</translation>
    </message>
</context>
<context>
    <name>ComparePanel</name>
    <message>
        <source>Open a second model with File → Compare with…</source>
        <translation>Öffnen Sie ein zweites Modell mit Datei → Vergleichen mit…</translation>
    </message>
    <message>
        <source>The models read the source in different tokens: both are merged to words (a source word&apos;s columns summed, a target word&apos;s rows averaged).</source>
        <translation>Die Modelle lesen die Quelle in unterschiedlichen Tokens: beide werden zu Wörtern zusammengefasst (die Spalten eines Quellworts summiert, die Zeilen eines Zielworts gemittelt).</translation>
    </message>
    <message>
        <source>Both models read the source in the same tokens, merged to words here (View → Words: a source word&apos;s columns summed, a target word&apos;s rows averaged).</source>
        <translation>Beide Modelle lesen die Quelle in denselben Tokens, hier zu Wörtern zusammengefasst (Ansicht → Wörter: die Spalten eines Quellworts summiert, die Zeilen eines Zielworts gemittelt).</translation>
    </message>
    <message>
        <source>Both models read the source in the same tokens: compared token by token.</source>
        <translation>Beide Modelle lesen die Quelle in denselben Tokens: Vergleich Token für Token.</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1 of %2 rows agree&lt;/b&gt;; mean |A − B| %3, largest %4 (grey rows: the targets differ there).</source>
        <translation>&lt;b&gt;%1 von %2 Zeilen stimmen überein&lt;/b&gt;; mittlere |A − B| %3, größte %4 (graue Zeilen: dort unterscheiden sich die Ziele).</translation>
    </message>
    <message>
        <source>&lt;b&gt;A&lt;/b&gt; %1: &lt;i&gt;%2&lt;/i&gt;&lt;br&gt;&lt;b&gt;B&lt;/b&gt; %3: &lt;i&gt;%4&lt;/i&gt;&lt;br&gt;%5</source>
        <translation>&lt;b&gt;A&lt;/b&gt; %1: &lt;i&gt;%2&lt;/i&gt;&lt;br&gt;&lt;b&gt;B&lt;/b&gt; %3: &lt;i&gt;%4&lt;/i&gt;&lt;br&gt;%5</translation>
    </message>
    <message>
        <source>&lt;b&gt;Test set&lt;/b&gt; %1 (%2 sources, %3; cased BLEU over words and punctuation)&lt;table cellspacing=&apos;6&apos;&gt;&lt;tr&gt;&lt;th&gt;&lt;/th&gt;&lt;th align=&apos;left&apos;&gt;model&lt;/th&gt;&lt;th&gt;BLEU&lt;/th&gt;</source>
        <translation>&lt;b&gt;Testmenge&lt;/b&gt; %1 (%2 Quellsätze, %3; BLEU mit Groß-/Kleinschreibung über Wörter und Satzzeichen)&lt;table cellspacing=&apos;6&apos;&gt;&lt;tr&gt;&lt;th&gt;&lt;/th&gt;&lt;th align=&apos;left&apos;&gt;Modell&lt;/th&gt;&lt;th&gt;BLEU&lt;/th&gt;</translation>
    </message>
    <message>
        <source>&lt;th&gt;AER&lt;/th&gt;&lt;th&gt;precision&lt;/th&gt;&lt;th&gt;recall&lt;/th&gt;</source>
        <translation>&lt;th&gt;AER&lt;/th&gt;&lt;th&gt;Precision&lt;/th&gt;&lt;th&gt;Recall&lt;/th&gt;</translation>
    </message>
    <message>
        <source>AER: attention forced along each reference, argmax links over words; lower is better.</source>
        <translation>AER: Attention entlang jeder Referenz erzwungen, Argmax-Verknüpfungen über Wörter; niedriger ist besser.</translation>
    </message>
</context>
<context>
    <name>ComparisonController</name>
    <message>
        <source>Model B could not be opened: %1</source>
        <translation>Modell B konnte nicht geöffnet werden: %1</translation>
    </message>
    <message>
        <source>Model B (%1) cannot take this: %2</source>
        <translation>Modell B (%1) kann dies nicht verarbeiten: %2</translation>
    </message>
    <message>
        <source>Opening %1…</source>
        <translation>%1 wird geöffnet…</translation>
    </message>
    <message>
        <source>Compare models</source>
        <translation>Modelle vergleichen</translation>
    </message>
    <message>
        <source>Open a second model with File → Compare with…</source>
        <translation>Öffnen Sie ein zweites Modell mit Datei → Vergleichen mit…</translation>
    </message>
    <message>
        <source>Compare models: A = %1, B = %2</source>
        <translation>Modelle vergleichen: A = %1, B = %2</translation>
    </message>
    <message>
        <source>Model B is decoding the sentence…</source>
        <translation>Modell B dekodiert den Satz…</translation>
    </message>
    <message>
        <source>Type a sentence: both models decode it.</source>
        <translation>Geben Sie einen Satz ein: beide Modelle dekodieren ihn.</translation>
    </message>
    <message>
        <source>Scoring both models on %1…</source>
        <translation>Beide Modelle werden auf %1 bewertet…</translation>
    </message>
</context>
<context>
    <name>DecodingDocument</name>
    <message>
        <source>attributing the target (heatmap: %1)</source>
        <translation>beim Attribuieren des Ziels (Heatmap: %1)</translation>
    </message>
    <message>
        <source>aligning the pair for View &gt; Links</source>
        <translation>beim Alignieren des Paars für Ansicht &gt; Verknüpfungen</translation>
    </message>
    <message>
        <source>aligning the pair for View &gt; Links with the reverse model &apos;%1&apos;</source>
        <translation>beim Alignieren des Paars für Ansicht &gt; Verknüpfungen mit dem Rückwärtsmodell ‚%1‘</translation>
    </message>
    <message>
        <source>unexpected error: %1</source>
        <translation>unerwarteter Fehler: %1</translation>
    </message>
    <message>
        <source>encoding the sentence</source>
        <translation>beim Kodieren des Satzes</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>in Schritt %1</translation>
    </message>
    <message>
        <source>The model</source>
        <translation>Das Modell</translation>
    </message>
    <message>
        <source>%1 did not finish %2 within %3 s: its code may loop for ever.</source>
        <translation>%1 ist %2 nicht innerhalb von %3 s fertig geworden: sein Code läuft womöglich endlos.</translation>
    </message>
    <message>
        <source>%1 did not stop %2 when cancelled.</source>
        <translation>%1 hat %2 nach dem Abbrechen nicht angehalten.</translation>
    </message>
    <message>
        <source> View &gt; Links is set back to None.</source>
        <translation> Ansicht &gt; Verknüpfungen steht wieder auf Keine.</translation>
    </message>
    <message>
        <source> The sentence was set aside; the model stays open.</source>
        <translation> Der Satz wurde verworfen; das Modell bleibt geöffnet.</translation>
    </message>
</context>
<context>
    <name>ExportDialog</name>
    <message>
        <source>Export alignment</source>
        <translation>Alignment exportieren</translation>
    </message>
    <message>
        <source>PNG image</source>
        <translation>PNG-Bild</translation>
    </message>
    <message>
        <source>SVG (vector, text as text)</source>
        <translation>SVG (Vektor, Text bleibt Text)</translation>
    </message>
    <message>
        <source>PDF (vector, text as text)</source>
        <translation>PDF (Vektor, Text bleibt Text)</translation>
    </message>
    <message>
        <source>CSV (the alpha matrix)</source>
        <translation>CSV (die alpha-Matrix)</translation>
    </message>
    <message>
        <source>JSON (tokens, matrix, model, options)</source>
        <translation>JSON (Tokens, Matrix, Modell, Optionen)</translation>
    </message>
    <message>
        <source>Pharaoh links (i-j)</source>
        <translation>Pharaoh-Verknüpfungen (i-j)</translation>
    </message>
    <message>
        <source>Web page (interactive, one file)</source>
        <translation>Webseite (interaktiv, eine Datei)</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Durchsuchen…</translation>
    </message>
    <message>
        <source> dpi</source>
        <translation> dpi</translation>
    </message>
    <message>
        <source>Include the encoder-states panel</source>
        <translation>Encoder-Zustände mit ausgeben</translation>
    </message>
    <message>
        <source>Viridis (perceptually uniform)</source>
        <translation>Viridis (wahrnehmungsgleichmäßig)</translation>
    </message>
    <message>
        <source>Grey-scale (for print)</source>
        <translation>Graustufen (für den Druck)</translation>
    </message>
    <message>
        <source>Write the values in the cells</source>
        <translation>Werte in die Zellen schreiben</translation>
    </message>
    <message>
        <source> pt</source>
        <translation> pt</translation>
    </message>
    <message>
        <source>Keep the &lt;/s&gt; column</source>
        <translation>Spalte &lt;/s&gt; behalten</translation>
    </message>
    <message>
        <source>Drop the &lt;/s&gt; column</source>
        <translation>Spalte &lt;/s&gt; weglassen</translation>
    </message>
    <message>
        <source>Drop &lt;/s&gt; and renormalise rows</source>
        <translation>&lt;/s&gt; weglassen und Zeilen renormieren</translation>
    </message>
    <message>
        <source>No title</source>
        <translation>Kein Titel</translation>
    </message>
    <message>
        <source>Frame the last step and its peak</source>
        <translation>Letzten Schritt und sein Maximum einrahmen</translation>
    </message>
    <message>
        <source>The steps of this sentence</source>
        <translation>Die Schritte dieses Satzes</translation>
    </message>
    <message>
        <source>The training run&apos;s snapshots (the sentence forced along one target)</source>
        <translation>Die Snapshots des Trainingslaufs (der Satz entlang eines Ziels erzwungen)</translation>
    </message>
    <message>
        <source>Format</source>
        <translation>Format</translation>
    </message>
    <message>
        <source>File</source>
        <translation>Datei</translation>
    </message>
    <message>
        <source>Animate</source>
        <translation>Animieren</translation>
    </message>
    <message>
        <source>Resolution</source>
        <translation>Auflösung</translation>
    </message>
    <message>
        <source>Colours</source>
        <translation>Farben</translation>
    </message>
    <message>
        <source>Font size</source>
        <translation>Schriftgröße</translation>
    </message>
    <message>
        <source>&lt;/s&gt; column</source>
        <translation>Spalte &lt;/s&gt;</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>Titel</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>Exportieren</translation>
    </message>
    <message>
        <source>Animated GIF (the run&apos;s snapshots, one frame each)</source>
        <translation>Animiertes GIF (die Snapshots des Laufs, je ein Bild)</translation>
    </message>
    <message>
        <source>Animated GIF (the steps, one frame each)</source>
        <translation>Animiertes GIF (die Schritte, je ein Bild)</translation>
    </message>
    <message>
        <source>PNG frames (the snapshots as NAME-snapshot01.png, ...)</source>
        <translation>PNG-Einzelbilder (die Snapshots als NAME-snapshot01.png, …)</translation>
    </message>
    <message>
        <source>PNG frames (the steps as NAME-step01.png, ...)</source>
        <translation>PNG-Einzelbilder (die Schritte als NAME-step01.png, …)</translation>
    </message>
    <message>
        <source>%1 × %2 in</source>
        <translation>%1 × %2 Zoll</translation>
    </message>
    <message>
        <source>%1, %2 × %3 pixels</source>
        <translation>%1, %2 × %3 Pixel</translation>
    </message>
    <message>
        <source>Nothing to export.</source>
        <translation>Nichts zu exportieren.</translation>
    </message>
    <message>
        <source>Choose a file to export to.</source>
        <translation>Wählen Sie eine Datei für den Export.</translation>
    </message>
    <message>
        <source>View → Words shows no encoder states: they belong to the model&apos;s tokens</source>
        <translation>Ansicht → Wörter zeigt keine Encoder-Zustände: Sie gehören zu den Tokens des Modells</translation>
    </message>
    <message>
        <source>Carry the model: type sentences and decode in the browser (a live page; about a minute)</source>
        <translation>Modell mitgeben: Sätze im Browser eingeben und dekodieren (eine Live-Seite; etwa eine Minute)</translation>
    </message>
    <message>
        <source>The model&apos;s own encode and step run in the page (ONNX Runtime Web); the runtime and the model go in the folder alignscope-live beside the page. Needs Debian&apos;s python3-torch, python3-onnx and nodejs.</source>
        <translation>Das eigene encode und step des Modells laufen in der Seite (ONNX Runtime Web); Laufzeit und Modell liegen im Ordner alignscope-live neben der Seite. Benötigt Debians python3-torch, python3-onnx und nodejs.</translation>
    </message>
    <message>
        <source>Making the live page: exporting the model and checking it in the browser&apos;s runtime…</source>
        <translation>Die Live-Seite entsteht: das Modell wird exportiert und in der Laufzeit des Browsers geprüft…</translation>
    </message>
</context>
<context>
    <name>FigureOptions</name>
    <message>
        <source>English</source>
        <translation>Englisch</translation>
    </message>
    <message>
        <source>French</source>
        <translation>Französisch</translation>
    </message>
    <message>
        <source>German</source>
        <translation>Deutsch</translation>
    </message>
    <message>
        <source>Korean</source>
        <translation>Koreanisch</translation>
    </message>
</context>
<context>
    <name>LessonLanguage</name>
    <message>
        <source>in English: no %1 version</source>
        <translation>auf Englisch: keine Fassung auf %1</translation>
    </message>
</context>
<context>
    <name>LessonPanel</name>
    <message>
        <source>Click to see the picture full size</source>
        <translation>Klicken, um das Bild in voller Größe zu sehen</translation>
    </message>
    <message>
        <source>◀ Previous</source>
        <translation>◀ Zurück</translation>
    </message>
    <message>
        <source>Next ▶</source>
        <translation>Weiter ▶</translation>
    </message>
    <message>
        <source>Previous page (Page Up)</source>
        <translation>Vorige Seite (Bild ↑)</translation>
    </message>
    <message>
        <source>Next page (Page Down)</source>
        <translation>Nächste Seite (Bild ↓)</translation>
    </message>
    <message>
        <source>No lesson</source>
        <translation>Keine Lektion</translation>
    </message>
    <message>
        <source>Choose one from the Lessons menu.</source>
        <translation>Wählen Sie eine im Menü Lektionen.</translation>
    </message>
    <message>
        <source>%1 · %2 / %3</source>
        <translation>%1 · %2 / %3</translation>
    </message>
    <message>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>AlignScope</source>
        <translation>AlignScope</translation>
    </message>
    <message>
        <source>AlignScope — %1</source>
        <translation>AlignScope — %1</translation>
    </message>
    <message>
        <source>decoding…</source>
        <translation>wird dekodiert…</translation>
    </message>
    <message>
        <source>&amp;Open model…</source>
        <translation>Modell ö&amp;ffnen…</translation>
    </message>
    <message>
        <source>Open a model file</source>
        <translation>Eine Modelldatei öffnen</translation>
    </message>
    <message>
        <source>&amp;Step →</source>
        <translation>&amp;Schritt →</translation>
    </message>
    <message>
        <source>Decode one more token</source>
        <translation>Ein weiteres Token dekodieren</translation>
    </message>
    <message>
        <source>← &amp;Back</source>
        <translation>← &amp;Zurück</translation>
    </message>
    <message>
        <source>Undo the last step</source>
        <translation>Den letzten Schritt rückgängig machen</translation>
    </message>
    <message>
        <source>&amp;Run to end</source>
        <translation>Bis zum &amp;Ende</translation>
    </message>
    <message>
        <source>Decode until &lt;/s&gt;</source>
        <translation>Dekodieren bis &lt;/s&gt;</translation>
    </message>
    <message>
        <source>R&amp;eset</source>
        <translation>Zu&amp;rücksetzen</translation>
    </message>
    <message>
        <source>Back to the first step</source>
        <translation>Zurück zum ersten Schritt</translation>
    </message>
    <message>
        <source>Bea&amp;m search</source>
        <translation>Bea&amp;m-Suche</translation>
    </message>
    <message>
        <source>Run beam search and list every hypothesis</source>
        <translation>Beam-Suche ausführen und jede Hypothese auflisten</translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation>&amp;Abbrechen</translation>
    </message>
    <message>
        <source>Stop a running search</source>
        <translation>Eine laufende Suche anhalten</translation>
    </message>
    <message>
        <source>Translate as you t&amp;ype</source>
        <translation>Beim T&amp;ippen übersetzen</translation>
    </message>
    <message>
        <source>Decode the whole sentence after each edit</source>
        <translation>Nach jeder Änderung den ganzen Satz dekodieren</translation>
    </message>
    <message>
        <source>&amp;Teacher forcing</source>
        <translation>&amp;Teacher Forcing</translation>
    </message>
    <message>
        <source>Type a target too and see the alignment the model gives that pair</source>
        <translation>Auch ein Ziel eingeben und das Alignment sehen, das das Modell diesem Paar gibt</translation>
    </message>
    <message>
        <source>Show &amp;encoder states</source>
        <translation>&amp;Encoder-Zustände zeigen</translation>
    </message>
    <message>
        <source>Show &amp;values in cells</source>
        <translation>&amp;Werte in den Zellen zeigen</translation>
    </message>
    <message>
        <source>&amp;Grey-scale colours</source>
        <translation>&amp;Graustufen</translation>
    </message>
    <message>
        <source>&amp;Words (merge sub-word pieces)</source>
        <translation>W&amp;örter (Subword-Teile zusammenfassen)</translation>
    </message>
    <message>
        <source>The heatmap over the words of the text: a source word&apos;s piece columns summed, a target word&apos;s piece rows averaged (the encoder panel, one column per piece, is left out)</source>
        <translation>Die Heatmap über den Wörtern des Textes: die Teilstück-Spalten eines Quellworts summiert, die Teilstück-Zeilen eines Zielworts gemittelt (das Encoder-Feld, eine Spalte je Teilstück, entfällt)</translation>
    </message>
    <message>
        <source>&amp;Keep the &lt;/s&gt; column</source>
        <translation>Spalte &lt;/s&gt; &amp;behalten</translation>
    </message>
    <message>
        <source>Hi&amp;de the &lt;/s&gt; column</source>
        <translation>Spalte &lt;/s&gt; &amp;ausblenden</translation>
    </message>
    <message>
        <source>Hide &lt;/s&gt; and re&amp;normalise rows</source>
        <translation>&lt;/s&gt; ausblenden und Zeilen re&amp;normieren</translation>
    </message>
    <message>
        <source>&amp;Export…</source>
        <translation>&amp;Exportieren…</translation>
    </message>
    <message>
        <source>Export the alignment as PNG, SVG, PDF, CSV, JSON or Pharaoh links</source>
        <translation>Das Alignment als PNG, SVG, PDF, CSV, JSON oder Pharaoh-Verknüpfungen exportieren</translation>
    </message>
    <message>
        <source>Choose candidate %1</source>
        <translation>Kandidat %1 wählen</translation>
    </message>
    <message>
        <source>Open &amp;training run…</source>
        <translation>&amp;Trainingslauf öffnen…</translation>
    </message>
    <message>
        <source>Open a training run&apos;s snapshots</source>
        <translation>Die Snapshots eines Trainingslaufs öffnen</translation>
    </message>
    <message>
        <source>&amp;Compare with…</source>
        <translation>&amp;Vergleichen mit…</translation>
    </message>
    <message>
        <source>Decode the sentence with a second model beside this one</source>
        <translation>Den Satz mit einem zweiten Modell neben diesem dekodieren</translation>
    </message>
    <message>
        <source>Compare on a test set…</source>
        <translation>Auf einer Testmenge vergleichen…</translation>
    </message>
    <message>
        <source>Both models&apos; BLEU on a test file</source>
        <translation>BLEU beider Modelle auf einer Testdatei</translation>
    </message>
    <message>
        <source>Stop comparing</source>
        <translation>Vergleich beenden</translation>
    </message>
    <message>
        <source>Close the second model</source>
        <translation>Das zweite Modell schließen</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>Quit AlignScope</source>
        <translation>AlignScope beenden</translation>
    </message>
    <message>
        <source>&amp;Next page</source>
        <translation>&amp;Nächste Seite</translation>
    </message>
    <message>
        <source>The lesson&apos;s next page</source>
        <translation>Die nächste Seite der Lektion</translation>
    </message>
    <message>
        <source>&amp;Previous page</source>
        <translation>&amp;Vorige Seite</translation>
    </message>
    <message>
        <source>The lesson&apos;s previous page</source>
        <translation>Die vorige Seite der Lektion</translation>
    </message>
    <message>
        <source>Presenter &amp;mode</source>
        <translation>&amp;Präsentationsmodus</translation>
    </message>
    <message>
        <source>Large text, the whole screen, the panels in one column</source>
        <translation>Große Schrift, der ganze Bildschirm, die Felder in einer Spalte</translation>
    </message>
    <message>
        <source>Show the page&apos;s p&amp;icture full size</source>
        <translation>B&amp;ild der Seite in voller Größe</translation>
    </message>
    <message>
        <source>The lesson page&apos;s picture, fitted to the screen</source>
        <translation>Das Bild der Lektionsseite, auf den Bildschirm eingepasst</translation>
    </message>
    <message>
        <source>&amp;Keys…</source>
        <translation>&amp;Tasten…</translation>
    </message>
    <message>
        <source>Every key and what it does</source>
        <translation>Jede Taste und was sie tut</translation>
    </message>
    <message>
        <source>&amp;End lesson</source>
        <translation>Lektion b&amp;eenden</translation>
    </message>
    <message>
        <source>Back to the view before the lesson</source>
        <translation>Zurück zur Ansicht vor der Lektion</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>Open &amp;recent</source>
        <translation>&amp;Zuletzt geöffnet</translation>
    </message>
    <message>
        <source>&amp;Decode</source>
        <translation>&amp;Dekodieren</translation>
    </message>
    <message>
        <source>&amp;Lessons</source>
        <translation>&amp;Lektionen</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <source>&amp;Beam hypotheses</source>
        <translation>Beam-H&amp;ypothesen</translation>
    </message>
    <message>
        <source>Step e&amp;xplained</source>
        <translation>Schritt erkl&amp;ärt</translation>
    </message>
    <message>
        <source>&amp;Lesson</source>
        <translation>&amp;Lektion</translation>
    </message>
    <message>
        <source>T&amp;raining run</source>
        <translation>&amp;Trainingslauf</translation>
    </message>
    <message>
        <source>Com&amp;pare models</source>
        <translation>&amp;Modelle vergleichen</translation>
    </message>
    <message>
        <source>Pict&amp;ure</source>
        <translation>B&amp;ild</translation>
    </message>
    <message>
        <source>&amp;Heatmap</source>
        <translation>&amp;Heatmap</translation>
    </message>
    <message>
        <source>&amp;Attention weights</source>
        <translation>&amp;Aufmerksamkeitsgewichte</translation>
    </message>
    <message>
        <source>&amp;Gradient × input</source>
        <translation>&amp;Gradient × Eingabe</translation>
    </message>
    <message>
        <source>&amp;Integrated gradients</source>
        <translation>&amp;Integrierte Gradienten</translation>
    </message>
    <message>
        <source>&amp;Occlusion</source>
        <translation>&amp;Okklusion</translation>
    </message>
    <message>
        <source>Attention × o&amp;cclusion (where they agree)</source>
        <translation>Attention × O&amp;kklusion (wo beide übereinstimmen)</translation>
    </message>
    <message>
        <source>L&amp;inks</source>
        <translation>&amp;Verknüpfungen</translation>
    </message>
    <message>
        <source>&amp;None</source>
        <translation>&amp;Keine</translation>
    </message>
    <message>
        <source>&amp;Argmax (each target word&apos;s peak)</source>
        <translation>&amp;Argmax (das Maximum jedes Zielworts)</translation>
    </message>
    <message>
        <source>Argmax, &lt;/s&gt; &amp;skipped (each target word&apos;s peak among the source words)</source>
        <translation>Argmax, &lt;/s&gt; &amp;übersprungen (das Maximum jedes Zielworts unter den Quellwörtern)</translation>
    </message>
    <message>
        <source>&amp;Itermax (mutual peaks)</source>
        <translation>&amp;Itermax (gegenseitige Maxima)</translation>
    </message>
    <message>
        <source>A&amp;greement with the reverse model</source>
        <translation>Ü&amp;bereinstimmung mit dem Rückwärtsmodell</translation>
    </message>
    <message>
        <source>Agreement, grow-diag-&amp;final-and</source>
        <translation>Übereinstimmung, grow-diag-&amp;final-and</translation>
    </message>
    <message>
        <source>&amp;System language</source>
        <translation>&amp;Systemsprache</translation>
    </message>
    <message>
        <source>L&amp;anguage</source>
        <translation>S&amp;prache</translation>
    </message>
    <message>
        <source>AlignScope speaks %1.</source>
        <translation>AlignScope spricht %1.</translation>
    </message>
    <message>
        <source>AlignScope speaks %1 from its next start.</source>
        <translation>AlignScope spricht ab dem nächsten Start %1.</translation>
    </message>
    <message>
        <source>Decoding toolbar</source>
        <translation>Werkzeugleiste Dekodieren</translation>
    </message>
    <message>
        <source>Beam search toolbar</source>
        <translation>Werkzeugleiste Beam-Suche</translation>
    </message>
    <message>
        <source> beam width </source>
        <translation> Beam-Breite </translation>
    </message>
    <message>
        <source>Modes and export toolbar</source>
        <translation>Werkzeugleiste Modi und Export</translation>
    </message>
    <message>
        <source>Dec&amp;oding toolbar</source>
        <translation>Werkzeugleiste &amp;Dekodieren</translation>
    </message>
    <message>
        <source>Beam &amp;search toolbar</source>
        <translation>Werkzeugleiste Beam-&amp;Suche</translation>
    </message>
    <message>
        <source>Modes and export &amp;toolbar</source>
        <translation>Werkzeugleiste Modi und E&amp;xport</translation>
    </message>
    <message>
        <source>Candidates</source>
        <translation>Kandidaten</translation>
    </message>
    <message>
        <source>Beam hypotheses</source>
        <translation>Beam-Hypothesen</translation>
    </message>
    <message>
        <source>Step explained</source>
        <translation>Schritt erklärt</translation>
    </message>
    <message>
        <source>Lesson</source>
        <translation>Lektion</translation>
    </message>
    <message>
        <source>Training run</source>
        <translation>Trainingslauf</translation>
    </message>
    <message>
        <source>Picture</source>
        <translation>Bild</translation>
    </message>
    <message>
        <source>Compare models</source>
        <translation>Modelle vergleichen</translation>
    </message>
    <message>
        <source>Beam width</source>
        <translation>Beam-Breite</translation>
    </message>
    <message>
        <source>exported %1</source>
        <translation>%1 exportiert</translation>
    </message>
    <message>
        <source>Open model</source>
        <translation>Modell öffnen</translation>
    </message>
    <message>
        <source>AlignScope models (*.pt);;All files (*)</source>
        <translation>AlignScope-Modelle (*.pt);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Open a second model first (File → Compare with…)</source>
        <translation>Öffnen Sie zuerst ein zweites Modell (Datei → Vergleichen mit…)</translation>
    </message>
    <message>
        <source>Compare with model</source>
        <translation>Vergleichen mit Modell</translation>
    </message>
    <message>
        <source>Models (*.pt);;All files (*)</source>
        <translation>Modelle (*.pt);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Test pairs (source&lt;TAB&gt;target per line)</source>
        <translation>Testpaare (Quelle&lt;TAB&gt;Ziel je Zeile)</translation>
    </message>
    <message>
        <source>Text (*.tsv *.txt);;All files (*)</source>
        <translation>Text (*.tsv *.txt);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Gold word links for AER (optional: Cancel for BLEU only)</source>
        <translation>Gold-Wortverknüpfungen für AER (optional: Abbrechen für nur BLEU)</translation>
    </message>
    <message>
        <source>Links (*.txt *.links);;All files (*)</source>
        <translation>Verknüpfungen (*.txt *.links);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Open training run (a folder written by train --snapshots)</source>
        <translation>Trainingslauf öffnen (ein von train --snapshots geschriebener Ordner)</translation>
    </message>
    <message>
        <source>Type a sentence first: the animation shows it through every snapshot</source>
        <translation>Geben Sie zuerst einen Satz ein: die Animation zeigt ihn durch alle Snapshots</translation>
    </message>
    <message>
        <source>Choose that candidate</source>
        <translation>Diesen Kandidaten wählen</translation>
    </message>
    <message>
        <source>Leave presenter mode</source>
        <translation>Präsentationsmodus verlassen</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>Tasten</translation>
    </message>
    <message>
        <source>&amp;Candidates</source>
        <translation>&amp;Kandidaten</translation>
    </message>
</context>
<context>
    <name>PicturePanel</name>
    <message>
        <source>Click to see the picture full size (Ctrl+I)</source>
        <translation>Klicken, um das Bild in voller Größe zu sehen (Strg+I)</translation>
    </message>
</context>
<context>
    <name>QMenu</name>
    <message>
        <source>&amp;Open lesson file…</source>
        <translation>Lektionsdatei ö&amp;ffnen…</translation>
    </message>
    <message>
        <source>Open lesson</source>
        <translation>Lektion öffnen</translation>
    </message>
    <message>
        <source>Lessons (*.json)</source>
        <translation>Lektionen (*.json)</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>PNG image (*.png)</source>
        <translation>PNG-Bild (*.png)</translation>
    </message>
    <message>
        <source>SVG vector image (*.svg)</source>
        <translation>SVG-Vektorgrafik (*.svg)</translation>
    </message>
    <message>
        <source>PDF document (*.pdf)</source>
        <translation>PDF-Dokument (*.pdf)</translation>
    </message>
    <message>
        <source>CSV matrix (*.csv)</source>
        <translation>CSV-Matrix (*.csv)</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <source>Pharaoh links (*.align)</source>
        <translation>Pharaoh-Verknüpfungen (*.align)</translation>
    </message>
    <message>
        <source>Animated GIF (*.gif)</source>
        <translation>Animiertes GIF (*.gif)</translation>
    </message>
    <message>
        <source>PNG frames, NAME-stepKK.png (*.png)</source>
        <translation>PNG-Einzelbilder, NAME-stepKK.png (*.png)</translation>
    </message>
    <message>
        <source>Interactive web page (*.html)</source>
        <translation>Interaktive Webseite (*.html)</translation>
    </message>
</context>
<context>
    <name>SentencePanel</name>
    <message>
        <source>Type a source sentence and press Enter</source>
        <translation>Quellsatz eingeben und Enter drücken</translation>
    </message>
    <message>
        <source>Target sentence for teacher forcing</source>
        <translation>Zielsatz für Teacher Forcing</translation>
    </message>
    <message>
        <source>The source as the model sees it; unknown words are marked</source>
        <translation>Die Quelle, wie das Modell sie sieht; unbekannte Wörter sind markiert</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Quelle</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>Tokens</translation>
    </message>
    <message>
        <source>Target</source>
        <translation>Ziel</translation>
    </message>
    <message>
        <source>Translation</source>
        <translation>Übersetzung</translation>
    </message>
    <message>
        <source>unknown to the model</source>
        <translation>dem Modell unbekannt</translation>
    </message>
</context>
<context>
    <name>StatusLine</name>
    <message>
        <source>no model</source>
        <translation>kein Modell</translation>
    </message>
    <message>
        <source>%1 · %2 source tokens · beam hypothesis %3 of %4, %5 tokens</source>
        <translation>%1 · %2 Quelltokens · Beam-Hypothese %3 von %4, %5 Tokens</translation>
    </message>
    <message>
        <source>Teacher forcing: type the target sentence in Target and press Enter</source>
        <translation>Teacher Forcing: Zielsatz unter Ziel eingeben und Enter drücken</translation>
    </message>
    <message>
        <source>%1 · %2 source tokens · teacher forcing, step %3 of %4</source>
        <translation>%1 · %2 Quelltokens · Teacher Forcing, Schritt %3 von %4</translation>
    </message>
    <message>
        <source>%1 · %2 source tokens · step %3%4</source>
        <translation>%1 · %2 Quelltokens · Schritt %3%4</translation>
    </message>
    <message>
        <source> · finished</source>
        <translation> · fertig</translation>
    </message>
    <message>
        <source> · %1 links (%2)</source>
        <translation> · %1 Verknüpfungen (%2)</translation>
    </message>
    <message>
        <source> · no links: %1</source>
        <translation> · keine Verknüpfungen: %1</translation>
    </message>
</context>
<context>
    <name>StepExplainedPanel</name>
    <message>
        <source>&lt;b&gt;Press Step&lt;/b&gt; to see one decoding step explained with this model&apos;s numbers.</source>
        <translation>&lt;b&gt;Drücken Sie Schritt&lt;/b&gt;, um einen Dekodierschritt mit den Zahlen dieses Modells erklärt zu sehen.</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1. Query&lt;/b&gt;: the new decoder state s&lt;sub&gt;%2&lt;/sub&gt; (%3 numbers, length %4): this model attends after its recurrent cell.</source>
        <translation>&lt;b&gt;%1. Anfrage&lt;/b&gt;: der neue Decoder-Zustand s&lt;sub&gt;%2&lt;/sub&gt; (%3 Zahlen, Länge %4): dieses Modell richtet seine Aufmerksamkeit erst nach seiner rekurrenten Zelle aus.</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1. Query&lt;/b&gt;: s&apos;&lt;sub&gt;%2&lt;/sub&gt; = %3(s&lt;sub&gt;%4&lt;/sub&gt;, emb(&lt;i&gt;%5&lt;/i&gt;)), the previous state (length %6) after a first cell has read the word just written: this model knows “&lt;i&gt;%5&lt;/i&gt;” before it looks.</source>
        <translation>&lt;b&gt;%1. Anfrage&lt;/b&gt;: s&apos;&lt;sub&gt;%2&lt;/sub&gt; = %3(s&lt;sub&gt;%4&lt;/sub&gt;, emb(&lt;i&gt;%5&lt;/i&gt;)), der vorige Zustand (Länge %6), nachdem eine erste Zelle das eben geschriebene Wort gelesen hat: dieses Modell kennt „&lt;i&gt;%5&lt;/i&gt;“, bevor es hinschaut.</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1. Query&lt;/b&gt;: the previous decoder state s&lt;sub&gt;%2&lt;/sub&gt; (%3 numbers, length %4).</source>
        <translation>&lt;b&gt;%1. Anfrage&lt;/b&gt;: der vorige Decoder-Zustand s&lt;sub&gt;%2&lt;/sub&gt; (%3 Zahlen, Länge %4).</translation>
    </message>
    <message>
        <source> Projected: W %1 has length %2.</source>
        <translation> Projiziert: W %1 hat die Länge %2.</translation>
    </message>
    <message>
        <source>e&lt;sub&gt;t,i&lt;/sub&gt; = %1&lt;sup&gt;T&lt;/sup&gt; h&lt;sub&gt;i&lt;/sub&gt;</source>
        <translation>e&lt;sub&gt;t,i&lt;/sub&gt; = %1&lt;sup&gt;T&lt;/sup&gt; h&lt;sub&gt;i&lt;/sub&gt;</translation>
    </message>
    <message>
        <source>e&lt;sub&gt;t,i&lt;/sub&gt; = %1&lt;sup&gt;T&lt;/sup&gt; W&lt;sub&gt;a&lt;/sub&gt; h&lt;sub&gt;i&lt;/sub&gt;</source>
        <translation>e&lt;sub&gt;t,i&lt;/sub&gt; = %1&lt;sup&gt;T&lt;/sup&gt; W&lt;sub&gt;a&lt;/sub&gt; h&lt;sub&gt;i&lt;/sub&gt;</translation>
    </message>
    <message>
        <source>e&lt;sub&gt;t,i&lt;/sub&gt; = MLP([h&lt;sub&gt;i&lt;/sub&gt;; %1]), a small network over the pair</source>
        <translation>e&lt;sub&gt;t,i&lt;/sub&gt; = MLP([h&lt;sub&gt;i&lt;/sub&gt;; %1]), ein kleines Netz über dem Paar</translation>
    </message>
    <message>
        <source>e&lt;sub&gt;t,i&lt;/sub&gt; = v&lt;sup&gt;T&lt;/sup&gt; tanh(W %1 + U h&lt;sub&gt;i&lt;/sub&gt;)</source>
        <translation>e&lt;sub&gt;t,i&lt;/sub&gt; = v&lt;sup&gt;T&lt;/sup&gt; tanh(W %1 + U h&lt;sub&gt;i&lt;/sub&gt;)</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1. Energies&lt;/b&gt;: this model has no attention; every step uses the same context, the encoder&apos;s final state.</source>
        <translation>&lt;b&gt;%1. Energien&lt;/b&gt;: dieses Modell hat keine Attention; jeder Schritt nutzt denselben Kontext, den letzten Zustand des Encoders.</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1. Energies&lt;/b&gt; %2: this model does not report its energies.</source>
        <translation>&lt;b&gt;%1. Energien&lt;/b&gt; %2: dieses Modell gibt seine Energien nicht aus.</translation>
    </message>
    <message>
        <source>&lt;b&gt;%5. Energies&lt;/b&gt; %1, one per source token: e&lt;sub&gt;%2,%3&lt;/sub&gt; = %4 is the largest.</source>
        <translation>&lt;b&gt;%5. Energien&lt;/b&gt; %1, eine je Quelltoken: e&lt;sub&gt;%2,%3&lt;/sub&gt; = %4 ist die größte.</translation>
    </message>
    <message>
        <source>&lt;b&gt;%2. Softmax&lt;/b&gt;: not used; alpha is shown uniform (1/%1 each) only as a placeholder.</source>
        <translation>&lt;b&gt;%2. Softmax&lt;/b&gt;: nicht verwendet; alpha wird nur als Platzhalter gleichverteilt gezeigt (je 1/%1).</translation>
    </message>
    <message>
        <source>&lt;b&gt;%6. Softmax&lt;/b&gt;: alpha&lt;sub&gt;t,i&lt;/sub&gt; = exp(e&lt;sub&gt;t,i&lt;/sub&gt;) / &amp;Sigma;&lt;sub&gt;j&lt;/sub&gt; exp(e&lt;sub&gt;t,j&lt;/sub&gt;). For &lt;i&gt;%1&lt;/i&gt;: exp(%2) / %3 = &lt;b&gt;%4&lt;/b&gt;. The weights sum to %5.</source>
        <translation>&lt;b&gt;%6. Softmax&lt;/b&gt;: alpha&lt;sub&gt;t,i&lt;/sub&gt; = exp(e&lt;sub&gt;t,i&lt;/sub&gt;) / &amp;Sigma;&lt;sub&gt;j&lt;/sub&gt; exp(e&lt;sub&gt;t,j&lt;/sub&gt;). Für &lt;i&gt;%1&lt;/i&gt;: exp(%2) / %3 = &lt;b&gt;%4&lt;/b&gt;. Die Gewichte ergeben zusammen %5.</translation>
    </message>
    <message>
        <source>&lt;b&gt;%4. Softmax&lt;/b&gt;: alpha&lt;sub&gt;t,%1&lt;/sub&gt; = &lt;b&gt;%2&lt;/b&gt; is the largest weight; the weights sum to %3.%5</source>
        <translation>&lt;b&gt;%4. Softmax&lt;/b&gt;: alpha&lt;sub&gt;t,%1&lt;/sub&gt; = &lt;b&gt;%2&lt;/b&gt; ist das größte Gewicht; die Gewichte ergeben zusammen %3.%5</translation>
    </message>
    <message>
        <source> The model&apos;s softmax also covers its own padding positions: their share is the &lt;i&gt;&amp;lt;padding&amp;gt;&lt;/i&gt; column, %1.</source>
        <translation> Die Softmax des Modells umfasst auch seine eigenen Padding-Positionen: ihr Anteil ist die Spalte &lt;i&gt;&amp;lt;padding&amp;gt;&lt;/i&gt;, %1.</translation>
    </message>
    <message>
        <source>&lt;b&gt;%2. Context&lt;/b&gt;: c = the encoder&apos;s final state, the same at every step (length %1).</source>
        <translation>&lt;b&gt;%2. Kontext&lt;/b&gt;: c = der letzte Zustand des Encoders, in jedem Schritt derselbe (Länge %1).</translation>
    </message>
    <message>
        <source>&lt;b&gt;%6. Context&lt;/b&gt;: c&lt;sub&gt;%1&lt;/sub&gt; = &amp;Sigma;&lt;sub&gt;i&lt;/sub&gt; alpha&lt;sub&gt;%1,i&lt;/sub&gt; h&lt;sub&gt;i&lt;/sub&gt; = %2%3 (%4 numbers, length %5; the c_t column beside the encoder states).</source>
        <translation>&lt;b&gt;%6. Kontext&lt;/b&gt;: c&lt;sub&gt;%1&lt;/sub&gt; = &amp;Sigma;&lt;sub&gt;i&lt;/sub&gt; alpha&lt;sub&gt;%1,i&lt;/sub&gt; h&lt;sub&gt;i&lt;/sub&gt; = %2%3 (%4 Zahlen, Länge %5; die Spalte c_t neben den Encoder-Zuständen).</translation>
    </message>
    <message>
        <source>&lt;b&gt;1. Decoder update&lt;/b&gt; (%1), before any attention: s&lt;sub&gt;%2&lt;/sub&gt; = %1(s&lt;sub&gt;%3&lt;/sub&gt;, [emb(&lt;i&gt;%4&lt;/i&gt;)%5]): the state moves by %6 (length %7 → %8).</source>
        <translation>&lt;b&gt;1. Decoder-Update&lt;/b&gt; (%1), vor jeder Attention: s&lt;sub&gt;%2&lt;/sub&gt; = %1(s&lt;sub&gt;%3&lt;/sub&gt;, [emb(&lt;i&gt;%4&lt;/i&gt;)%5]): der Zustand bewegt sich um %6 (Länge %7 → %8).</translation>
    </message>
    <message>
        <source>; the previous step&apos;s attentional output</source>
        <translation>; die Attention-Ausgabe des vorigen Schritts</translation>
    </message>
    <message>
        <source>&lt;b&gt;5. Decoder update&lt;/b&gt; (%1, a second cell): s&lt;sub&gt;%2&lt;/sub&gt; = %1(s&apos;&lt;sub&gt;%2&lt;/sub&gt;, c&lt;sub&gt;%2&lt;/sub&gt;): from s&lt;sub&gt;%3&lt;/sub&gt; the state moves by %4 (length %5 → %6).</source>
        <translation>&lt;b&gt;5. Decoder-Update&lt;/b&gt; (%1, eine zweite Zelle): s&lt;sub&gt;%2&lt;/sub&gt; = %1(s&apos;&lt;sub&gt;%2&lt;/sub&gt;, c&lt;sub&gt;%2&lt;/sub&gt;): von s&lt;sub&gt;%3&lt;/sub&gt; aus bewegt sich der Zustand um %4 (Länge %5 → %6).</translation>
    </message>
    <message>
        <source>&lt;b&gt;5. Decoder update&lt;/b&gt; (%1): s&lt;sub&gt;%2&lt;/sub&gt; = %1(s&lt;sub&gt;%3&lt;/sub&gt;, [emb(&lt;i&gt;%4&lt;/i&gt;); c&lt;sub&gt;%2&lt;/sub&gt;]): the state moves by %5 (length %6 → %7).</source>
        <translation>&lt;b&gt;5. Decoder-Update&lt;/b&gt; (%1): s&lt;sub&gt;%2&lt;/sub&gt; = %1(s&lt;sub&gt;%3&lt;/sub&gt;, [emb(&lt;i&gt;%4&lt;/i&gt;); c&lt;sub&gt;%2&lt;/sub&gt;]): der Zustand bewegt sich um %5 (Länge %6 → %7).</translation>
    </message>
    <message>
        <source>[s&lt;sub&gt;%1&lt;/sub&gt;; c&lt;sub&gt;%1&lt;/sub&gt;; emb(&lt;i&gt;%2&lt;/i&gt;)]</source>
        <translation>[s&lt;sub&gt;%1&lt;/sub&gt;; c&lt;sub&gt;%1&lt;/sub&gt;; emb(&lt;i&gt;%2&lt;/i&gt;)]</translation>
    </message>
    <message>
        <source>s&lt;sub&gt;%1&lt;/sub&gt; and c&lt;sub&gt;%1&lt;/sub&gt;</source>
        <translation>s&lt;sub&gt;%1&lt;/sub&gt; und c&lt;sub&gt;%1&lt;/sub&gt;</translation>
    </message>
    <message>
        <source>the new state s&lt;sub&gt;%1&lt;/sub&gt;</source>
        <translation>dem neuen Zustand s&lt;sub&gt;%1&lt;/sub&gt;</translation>
    </message>
    <message>
        <source> A byte piece: one UTF-8 byte (0x%1) of a character the vocabulary spells byte by byte.</source>
        <translation> Ein Byte-Teilstück: ein UTF-8-Byte (0x%1) eines Zeichens, das das Vokabular Byte für Byte schreibt.</translation>
    </message>
    <message>
        <source> A piece that starts a new word (its ▁ is the space before it).</source>
        <translation> Ein Teilstück, das ein neues Wort beginnt (sein ▁ ist das Leerzeichen davor).</translation>
    </message>
    <message>
        <source> A piece that continues the word before it (no ▁).</source>
        <translation> Ein Teilstück, das das vorige Wort fortsetzt (ohne ▁).</translation>
    </message>
    <message>
        <source>&lt;b&gt;6. Output&lt;/b&gt;: a softmax over the whole target vocabulary from %1 (top %3 shown). %4 &lt;i&gt;%5&lt;/i&gt;, p = &lt;b&gt;%6&lt;/b&gt;.%7</source>
        <translation>&lt;b&gt;6. Ausgabe&lt;/b&gt;: eine Softmax über das ganze Zielvokabular aus %1 (die ersten %3 gezeigt). %4 &lt;i&gt;%5&lt;/i&gt;, p = &lt;b&gt;%6&lt;/b&gt;.%7</translation>
    </message>
    <message>
        <source>Beam search kept:</source>
        <translation>Von der Beam-Suche behalten:</translation>
    </message>
    <message>
        <source>Forced:</source>
        <translation>Erzwungen:</translation>
    </message>
    <message>
        <source>Chosen:</source>
        <translation>Gewählt:</translation>
    </message>
    <message>
        <source>&lt;b&gt;Attribution&lt;/b&gt; (%1): %2&lt;br&gt;&lt;i&gt;%3&lt;/i&gt;</source>
        <translation>&lt;b&gt;Attribution&lt;/b&gt; (%1): %2&lt;br&gt;&lt;i&gt;%3&lt;/i&gt;</translation>
    </message>
    <message>
        <source>the same top source token (&lt;i&gt;%1&lt;/i&gt;)</source>
        <translation>dasselbe wichtigste Quelltoken (&lt;i&gt;%1&lt;/i&gt;)</translation>
    </message>
    <message>
        <source>different top source tokens: attention &lt;i&gt;%1&lt;/i&gt;, %2 &lt;i&gt;%3&lt;/i&gt;</source>
        <translation>verschiedene wichtigste Quelltokens: Attention &lt;i&gt;%1&lt;/i&gt;, %2 &lt;i&gt;%3&lt;/i&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;Attribution&lt;/b&gt; (%1, shown in the heatmap): %2&lt;br&gt;Against this step&apos;s attention: rank correlation &amp;rho; = &lt;b&gt;%3&lt;/b&gt;, %4, Jensen–Shannon divergence &lt;b&gt;%5&lt;/b&gt; (0: the same distribution, 1: nothing in common; the attribution&apos;s magnitudes as a distribution).</source>
        <translation>&lt;b&gt;Attribution&lt;/b&gt; (%1, in der Heatmap gezeigt): %2&lt;br&gt;Verglichen mit der Attention dieses Schritts: Rangkorrelation &amp;rho; = &lt;b&gt;%3&lt;/b&gt;, %4, Jensen-Shannon-Divergenz &lt;b&gt;%5&lt;/b&gt; (0: dieselbe Verteilung, 1: nichts gemeinsam; die Beträge der Attribution als Verteilung).</translation>
    </message>
    <message>
        <source>computing…</source>
        <translation>wird berechnet…</translation>
    </message>
</context>
<context>
    <name>TimelinePanel</name>
    <message>
        <source>Export animation…</source>
        <translation>Animation exportieren…</translation>
    </message>
    <message>
        <source>The sentence through every snapshot, as an animated GIF or numbered PNG frames</source>
        <translation>Der Satz durch alle Snapshots, als animiertes GIF oder nummerierte PNG-Einzelbilder</translation>
    </message>
    <message>
        <source>update (log scale)</source>
        <translation>Update (logarithmisch)</translation>
    </message>
    <message>
        <source>loss (NLL/token)</source>
        <translation>Verlust (NLL/Token)</translation>
    </message>
    <message>
        <source>The heatmap is this snapshot&apos;s alignment of the sentence, forced along one target.</source>
        <translation>Die Heatmap ist das Alignment des Satzes in diesem Snapshot, entlang eines Ziels erzwungen.</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: snapshot %2 of %3, after update %4 of %5 (training loss %6)</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;: Snapshot %2 von %3, nach Update %4 von %5 (Trainingsverlust %6)</translation>
    </message>
</context>
<context>
    <name>TrainingRunController</name>
    <message>
        <source>&apos;%1&apos; reads other vocabularies than &apos;%2&apos;: the snapshots of one run share one (does the folder mix two runs?)</source>
        <translation>‚%1‘ liest andere Vokabulare als ‚%2‘: die Snapshots eines Laufs teilen eines (mischt der Ordner zwei Läufe?)</translation>
    </message>
</context>
</TS>
