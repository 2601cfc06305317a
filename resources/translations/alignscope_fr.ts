<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="fr">
<context>
    <name>AlignmentComparisonFigure</name>
    <message>
        <source>alpha, merged to words</source>
        <translation>alpha, regroupé en mots</translation>
    </message>
    <message>
        <source>attention weight alpha</source>
        <translation>poids d&apos;attention alpha</translation>
    </message>
    <message>
        <source>alpha A − alpha B</source>
        <translation>alpha A − alpha B</translation>
    </message>
    <message>
        <source>A − B (%1 of %2 rows agree)</source>
        <translation>A − B (%1 lignes sur %2 concordent)</translation>
    </message>
    <message>
        <source>source words</source>
        <translation>mots source</translation>
    </message>
    <message>
        <source>source tokens</source>
        <translation>tokens source</translation>
    </message>
    <message>
        <source>target words</source>
        <translation>mots cible</translation>
    </message>
    <message>
        <source>target tokens</source>
        <translation>tokens cible</translation>
    </message>
    <message>
        <source>%1: no row %2</source>
        <translation>%1&#xa0;: pas de ligne %2</translation>
    </message>
    <message>
        <source>the targets differ at row %1: no difference</source>
        <translation>les cibles diffèrent à la ligne %1&#xa0;: pas de différence</translation>
    </message>
</context>
<context>
    <name>AlignmentFigure</name>
    <message>
        <source>encoder states h_i (one column per source token)</source>
        <translation>états de l&apos;encodeur h_i (une colonne par token source)</translation>
    </message>
    <message>
        <source>encoder states h_i
(one column per source token)</source>
        <translation>états de l&apos;encodeur h_i
(une colonne par token source)</translation>
    </message>
    <message>
        <source> (signed)</source>
        <translation> (signée)</translation>
    </message>
    <message>
        <source>alpha (uniform: no attention)</source>
        <translation>alpha (uniforme&#xa0;: pas d&apos;attention)</translation>
    </message>
    <message>
        <source>attention weight alpha</source>
        <translation>poids d&apos;attention alpha</translation>
    </message>
    <message>
        <source>source words</source>
        <translation>mots source</translation>
    </message>
    <message>
        <source>merged from pieces: a word&apos;s columns summed</source>
        <translation>regroupé à partir des sous-mots&#xa0;: les colonnes d&apos;un mot additionnées</translation>
    </message>
    <message>
        <source>source</source>
        <translation>source</translation>
    </message>
    <message>
        <source>%1   (word? = not in the model&apos;s vocabulary: read as &lt;unk&gt;)</source>
        <translation>%1   (mot? = absent du vocabulaire du modèle&#xa0;: lu comme &lt;unk&gt;)</translation>
    </message>
    <message>
        <source>given</source>
        <translation>imposée</translation>
    </message>
    <message>
        <source>beam hypothesis %1</source>
        <translation>hypothèse du faisceau %1</translation>
    </message>
    <message>
        <source>decoded</source>
        <translation>décodée</translation>
    </message>
    <message>
        <source>%1 of %2 forced</source>
        <translation>%1 sur %2 imposés</translation>
    </message>
    <message>
        <source>target</source>
        <translation>cible</translation>
    </message>
    <message>
        <source>%1, words: rows averaged</source>
        <translation>%1, mots&#xa0;: lignes moyennées</translation>
    </message>
    <message>
        <source>fwd →</source>
        <translation>avant →</translation>
    </message>
    <message>
        <source>← bwd</source>
        <translation>← arrière</translation>
    </message>
    <message>
        <source>source %1 &apos;%2&apos; → step %3 &apos;%4&apos;: %5 = %6</source>
        <translation>source %1 «&#xa0;%2&#xa0;» → étape %3 «&#xa0;%4&#xa0;»&#xa0;: %5 = %6</translation>
    </message>
    <message>
        <source>h_%1 (%2), dimension %3: %4</source>
        <translation>h_%1 (%2), dimension %3&#xa0;: %4</translation>
    </message>
</context>
<context>
    <name>BeamPanel</name>
    <message>
        <source>score · hypothesis (score = log P / length, higher is better; ↑↓ to pick)</source>
        <translation>score · hypothèse (score = log P / longueur, le plus haut est le meilleur&#xa0;; ↑↓ pour choisir)</translation>
    </message>
</context>
<context>
    <name>CandidatesView</name>
    <message>
        <source>Next-token candidates of this step. Click one, press its number (1-9), or pick it with Up/Down and Enter, to force it and decode on from there. With a sub-word model, a piece starting with ▁ begins a word; one without it continues the word before.</source>
        <translation>Candidats pour le prochain token à cette étape. Cliquez sur l&apos;un d&apos;eux, tapez son numéro (1–9) ou choisissez-le avec ↑/↓ et Entrée pour l&apos;imposer et poursuivre le décodage à partir de là. Avec un modèle en sous-mots, un morceau qui commence par ▁ ouvre un mot&#xa0;; un morceau sans ▁ prolonge le mot précédent.</translation>
    </message>
    <message>
        <source>not in top %1: %2</source>
        <translation>hors des %1 premiers&#xa0;: %2</translation>
    </message>
    <message>
        <source>Step to see the next-token candidates</source>
        <translation>Avancez d&apos;une étape pour voir les candidats du prochain token</translation>
    </message>
</context>
<context>
    <name>ComparePanel</name>
    <message>
        <source>Open a second model with File → Compare with…</source>
        <translation>Ouvrez un second modèle avec Fichier → Comparer avec…</translation>
    </message>
    <message>
        <source>The models read the source in different tokens: both are merged to words (a source word&apos;s columns summed, a target word&apos;s rows averaged).</source>
        <translation>Les modèles lisent la source en tokens différents&#xa0;: les deux sont regroupés en mots (les colonnes d&apos;un mot source additionnées, les lignes d&apos;un mot cible moyennées).</translation>
    </message>
    <message>
        <source>Both models read the source in the same tokens, merged to words here (View → Words: a source word&apos;s columns summed, a target word&apos;s rows averaged).</source>
        <translation>Les deux modèles lisent la source avec les mêmes tokens, ici regroupés en mots (Affichage → Mots&#xa0;: les colonnes d&apos;un mot source additionnées, les lignes d&apos;un mot cible moyennées).</translation>
    </message>
    <message>
        <source>Both models read the source in the same tokens: compared token by token.</source>
        <translation>Les deux modèles lisent la source avec les mêmes tokens&#xa0;: comparaison token par token.</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1 of %2 rows agree&lt;/b&gt;; mean |A − B| %3, largest %4 (grey rows: the targets differ there).</source>
        <translation>&lt;b&gt;%1 lignes sur %2 concordent&lt;/b&gt;&#xa0;; |A − B| moyen %3, maximal %4 (lignes grises&#xa0;: les cibles y diffèrent).</translation>
    </message>
    <message>
        <source>&lt;b&gt;A&lt;/b&gt; %1: &lt;i&gt;%2&lt;/i&gt;&lt;br&gt;&lt;b&gt;B&lt;/b&gt; %3: &lt;i&gt;%4&lt;/i&gt;&lt;br&gt;%5</source>
        <translation>&lt;b&gt;A&lt;/b&gt; %1&#xa0;: &lt;i&gt;%2&lt;/i&gt;&lt;br&gt;&lt;b&gt;B&lt;/b&gt; %3&#xa0;: &lt;i&gt;%4&lt;/i&gt;&lt;br&gt;%5</translation>
    </message>
    <message>
        <source>&lt;b&gt;Test set&lt;/b&gt; %1 (%2 sources, %3; cased BLEU over words and punctuation)&lt;table cellspacing=&apos;6&apos;&gt;&lt;tr&gt;&lt;th&gt;&lt;/th&gt;&lt;th align=&apos;left&apos;&gt;model&lt;/th&gt;&lt;th&gt;BLEU&lt;/th&gt;</source>
        <translation>&lt;b&gt;Jeu de test&lt;/b&gt; %1 (%2 phrases source, %3&#xa0;; BLEU sensible à la casse, sur les mots et la ponctuation)&lt;table cellspacing=&apos;6&apos;&gt;&lt;tr&gt;&lt;th&gt;&lt;/th&gt;&lt;th align=&apos;left&apos;&gt;modèle&lt;/th&gt;&lt;th&gt;BLEU&lt;/th&gt;</translation>
    </message>
    <message>
        <source>&lt;th&gt;AER&lt;/th&gt;&lt;th&gt;precision&lt;/th&gt;&lt;th&gt;recall&lt;/th&gt;</source>
        <translation>&lt;th&gt;AER&lt;/th&gt;&lt;th&gt;précision&lt;/th&gt;&lt;th&gt;rappel&lt;/th&gt;</translation>
    </message>
    <message>
        <source>AER: attention forced along each reference, argmax links over words; lower is better.</source>
        <translation>AER&#xa0;: attention imposée le long de chaque référence, liens argmax sur les mots&#xa0;; plus bas est meilleur.</translation>
    </message>
</context>
<context>
    <name>ComparisonController</name>
    <message>
        <source>Model B could not be opened: %1</source>
        <translation>Le modèle B n&apos;a pas pu être ouvert&#xa0;: %1</translation>
    </message>
    <message>
        <source>Model B (%1) cannot take this: %2</source>
        <translation>Le modèle B (%1) ne peut pas traiter ceci&#xa0;: %2</translation>
    </message>
    <message>
        <source>Opening %1…</source>
        <translation>Ouverture de %1…</translation>
    </message>
    <message>
        <source>Compare models</source>
        <translation>Comparer les modèles</translation>
    </message>
    <message>
        <source>Open a second model with File → Compare with…</source>
        <translation>Ouvrez un second modèle avec Fichier → Comparer avec…</translation>
    </message>
    <message>
        <source>Compare models: A = %1, B = %2</source>
        <translation>Comparer les modèles&#xa0;: A = %1, B = %2</translation>
    </message>
    <message>
        <source>Model B is decoding the sentence…</source>
        <translation>Le modèle B décode la phrase…</translation>
    </message>
    <message>
        <source>Type a sentence: both models decode it.</source>
        <translation>Saisissez une phrase&#xa0;: les deux modèles la décodent.</translation>
    </message>
    <message>
        <source>Scoring both models on %1…</source>
        <translation>Évaluation des deux modèles sur %1…</translation>
    </message>
</context>
<context>
    <name>DecodingDocument</name>
    <message>
        <source>attributing the target (heatmap: %1)</source>
        <translation>l&apos;attribution de la cible (carte de chaleur&#xa0;: %1)</translation>
    </message>
    <message>
        <source>aligning the pair for View &gt; Links</source>
        <translation>l&apos;alignement de la paire pour Affichage &gt; Liens</translation>
    </message>
    <message>
        <source>aligning the pair for View &gt; Links with the reverse model &apos;%1&apos;</source>
        <translation>l&apos;alignement de la paire pour Affichage &gt; Liens avec le modèle inverse «&#xa0;%1&#xa0;»</translation>
    </message>
    <message>
        <source>unexpected error: %1</source>
        <translation>erreur inattendue&#xa0;: %1</translation>
    </message>
    <message>
        <source>encoding the sentence</source>
        <translation>l&apos;encodage de la phrase</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>l&apos;étape %1</translation>
    </message>
    <message>
        <source>The model</source>
        <translation>Le modèle</translation>
    </message>
    <message>
        <source>%1 did not finish %2 within %3 s: its code may loop for ever.</source>
        <translation>%1 n&apos;a pas terminé %2 en %3 s&#xa0;: son code boucle peut-être sans fin.</translation>
    </message>
    <message>
        <source>%1 did not stop %2 when cancelled.</source>
        <translation>%1 n&apos;a pas interrompu %2 après l&apos;annulation.</translation>
    </message>
    <message>
        <source> View &gt; Links is set back to None.</source>
        <translation> Affichage &gt; Liens revient à Aucun.</translation>
    </message>
    <message>
        <source> The sentence was set aside; the model stays open.</source>
        <translation> La phrase a été mise de côté&#xa0;; le modèle reste ouvert.</translation>
    </message>
</context>
<context>
    <name>ExportDialog</name>
    <message>
        <source>Export alignment</source>
        <translation>Exporter l&apos;alignement</translation>
    </message>
    <message>
        <source>PNG image</source>
        <translation>Image PNG</translation>
    </message>
    <message>
        <source>SVG (vector, text as text)</source>
        <translation>SVG (vectoriel, le texte reste du texte)</translation>
    </message>
    <message>
        <source>PDF (vector, text as text)</source>
        <translation>PDF (vectoriel, le texte reste du texte)</translation>
    </message>
    <message>
        <source>CSV (the alpha matrix)</source>
        <translation>CSV (la matrice alpha)</translation>
    </message>
    <message>
        <source>JSON (tokens, matrix, model, options)</source>
        <translation>JSON (tokens, matrice, modèle, options)</translation>
    </message>
    <message>
        <source>Pharaoh links (i-j)</source>
        <translation>Liens Pharaoh (i-j)</translation>
    </message>
    <message>
        <source>Web page (interactive, one file)</source>
        <translation>Page web (interactive, un seul fichier)</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Parcourir…</translation>
    </message>
    <message>
        <source> dpi</source>
        <translation> ppp</translation>
    </message>
    <message>
        <source>Include the encoder-states panel</source>
        <translation>Inclure le panneau des états de l&apos;encodeur</translation>
    </message>
    <message>
        <source>Viridis (perceptually uniform)</source>
        <translation>Viridis (uniforme pour la perception)</translation>
    </message>
    <message>
        <source>Grey-scale (for print)</source>
        <translation>Niveaux de gris (pour l&apos;impression)</translation>
    </message>
    <message>
        <source>Write the values in the cells</source>
        <translation>Écrire les valeurs dans les cases</translation>
    </message>
    <message>
        <source> pt</source>
        <translation> pt</translation>
    </message>
    <message>
        <source>Keep the &lt;/s&gt; column</source>
        <translation>Garder la colonne &lt;/s&gt;</translation>
    </message>
    <message>
        <source>Drop the &lt;/s&gt; column</source>
        <translation>Retirer la colonne &lt;/s&gt;</translation>
    </message>
    <message>
        <source>Drop &lt;/s&gt; and renormalise rows</source>
        <translation>Retirer &lt;/s&gt; et renormaliser les lignes</translation>
    </message>
    <message>
        <source>No title</source>
        <translation>Sans titre</translation>
    </message>
    <message>
        <source>Frame the last step and its peak</source>
        <translation>Encadrer la dernière étape et son maximum</translation>
    </message>
    <message>
        <source>The steps of this sentence</source>
        <translation>Les étapes de cette phrase</translation>
    </message>
    <message>
        <source>The training run&apos;s snapshots (the sentence forced along one target)</source>
        <translation>Les instantanés de l&apos;entraînement (la phrase imposée le long d&apos;une cible)</translation>
    </message>
    <message>
        <source>Format</source>
        <translation>Format</translation>
    </message>
    <message>
        <source>File</source>
        <translation>Fichier</translation>
    </message>
    <message>
        <source>Animate</source>
        <translation>Animer</translation>
    </message>
    <message>
        <source>Resolution</source>
        <translation>Résolution</translation>
    </message>
    <message>
        <source>Colours</source>
        <translation>Couleurs</translation>
    </message>
    <message>
        <source>Font size</source>
        <translation>Taille de police</translation>
    </message>
    <message>
        <source>&lt;/s&gt; column</source>
        <translation>Colonne &lt;/s&gt;</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>Titre</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>Exporter</translation>
    </message>
    <message>
        <source>Animated GIF (the run&apos;s snapshots, one frame each)</source>
        <translation>GIF animé (les instantanés de l&apos;entraînement, une image chacun)</translation>
    </message>
    <message>
        <source>Animated GIF (the steps, one frame each)</source>
        <translation>GIF animé (les étapes, une image chacune)</translation>
    </message>
    <message>
        <source>PNG frames (the snapshots as NAME-snapshot01.png, ...)</source>
        <translation>Images PNG (les instantanés en NAME-snapshot01.png, …)</translation>
    </message>
    <message>
        <source>PNG frames (the steps as NAME-step01.png, ...)</source>
        <translation>Images PNG (les étapes en NAME-step01.png, …)</translation>
    </message>
    <message>
        <source>%1 × %2 in</source>
        <translation>%1 × %2 po</translation>
    </message>
    <message>
        <source>%1, %2 × %3 pixels</source>
        <translation>%1, %2 × %3 pixels</translation>
    </message>
    <message>
        <source>Nothing to export.</source>
        <translation>Rien à exporter.</translation>
    </message>
    <message>
        <source>Choose a file to export to.</source>
        <translation>Choisissez un fichier d&apos;export.</translation>
    </message>
    <message>
        <source>View → Words shows no encoder states: they belong to the model&apos;s tokens</source>
        <translation>Affichage → Mots ne montre pas les états de l&apos;encodeur : ils appartiennent aux tokens du modèle</translation>
    </message>
    <message>
        <source>Carry the model: type sentences and decode in the browser (a live page; about a minute)</source>
        <translation>Embarquer le modèle : saisir des phrases et décoder dans le navigateur (une page vivante ; environ une minute)</translation>
    </message>
    <message>
        <source>The model&apos;s own encode and step run in the page (ONNX Runtime Web); the runtime and the model go in the folder alignscope-live beside the page. Needs Debian&apos;s python3-torch, python3-onnx and nodejs.</source>
        <translation>Les propres encode et step du modèle s&apos;exécutent dans la page (ONNX Runtime Web) ; l&apos;environnement d&apos;exécution et le modèle vont dans le dossier alignscope-live à côté de la page. Nécessite python3-torch, python3-onnx et nodejs de Debian.</translation>
    </message>
    <message>
        <source>Making the live page: exporting the model and checking it in the browser&apos;s runtime…</source>
        <translation>Création de la page vivante : export du modèle et vérification dans l&apos;environnement d&apos;exécution du navigateur…</translation>
    </message>
</context>
<context>
    <name>FigureOptions</name>
    <message>
        <source>English</source>
        <translation>anglais</translation>
    </message>
    <message>
        <source>French</source>
        <translation>français</translation>
    </message>
    <message>
        <source>German</source>
        <translation>allemand</translation>
    </message>
    <message>
        <source>Korean</source>
        <translation>coréen</translation>
    </message>
</context>
<context>
    <name>LessonLanguage</name>
    <message>
        <source>in English: no %1 version</source>
        <translation>en anglais : pas de version en %1</translation>
    </message>
</context>
<context>
    <name>LessonPanel</name>
    <message>
        <source>Click to see the picture full size</source>
        <translation>Cliquez pour voir l&apos;image en taille réelle</translation>
    </message>
    <message>
        <source>◀ Previous</source>
        <translation>◀ Précédente</translation>
    </message>
    <message>
        <source>Next ▶</source>
        <translation>Suivante ▶</translation>
    </message>
    <message>
        <source>Previous page (Page Up)</source>
        <translation>Page précédente (Page préc.)</translation>
    </message>
    <message>
        <source>Next page (Page Down)</source>
        <translation>Page suivante (Page suiv.)</translation>
    </message>
    <message>
        <source>No lesson</source>
        <translation>Aucune leçon</translation>
    </message>
    <message>
        <source>Choose one from the Lessons menu.</source>
        <translation>Choisissez-en une dans le menu Leçons.</translation>
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
        <translation>décodage…</translation>
    </message>
    <message>
        <source>&amp;Open model…</source>
        <translation>&amp;Ouvrir un modèle…</translation>
    </message>
    <message>
        <source>Open a model file</source>
        <translation>Ouvrir un fichier de modèle</translation>
    </message>
    <message>
        <source>&amp;Step →</source>
        <translation>Éta&amp;pe →</translation>
    </message>
    <message>
        <source>Decode one more token</source>
        <translation>Décoder un token de plus</translation>
    </message>
    <message>
        <source>← &amp;Back</source>
        <translation>← &amp;Retour</translation>
    </message>
    <message>
        <source>Undo the last step</source>
        <translation>Annuler la dernière étape</translation>
    </message>
    <message>
        <source>&amp;Run to end</source>
        <translation>&amp;Jusqu&apos;à la fin</translation>
    </message>
    <message>
        <source>Decode until &lt;/s&gt;</source>
        <translation>Décoder jusqu&apos;à &lt;/s&gt;</translation>
    </message>
    <message>
        <source>R&amp;eset</source>
        <translation>Réi&amp;nitialiser</translation>
    </message>
    <message>
        <source>Back to the first step</source>
        <translation>Revenir à la première étape</translation>
    </message>
    <message>
        <source>Bea&amp;m search</source>
        <translation>Rec&amp;herche en faisceau</translation>
    </message>
    <message>
        <source>Run beam search and list every hypothesis</source>
        <translation>Lancer la recherche en faisceau et lister chaque hypothèse</translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation>&amp;Annuler</translation>
    </message>
    <message>
        <source>Stop a running search</source>
        <translation>Arrêter une recherche en cours</translation>
    </message>
    <message>
        <source>Translate as you t&amp;ype</source>
        <translation>Traduire pendant la &amp;saisie</translation>
    </message>
    <message>
        <source>Decode the whole sentence after each edit</source>
        <translation>Décoder toute la phrase après chaque modification</translation>
    </message>
    <message>
        <source>&amp;Teacher forcing</source>
        <translation>&amp;Forçage de l&apos;enseignant</translation>
    </message>
    <message>
        <source>Type a target too and see the alignment the model gives that pair</source>
        <translation>Saisir aussi une cible et voir l&apos;alignement que le modèle donne à cette paire</translation>
    </message>
    <message>
        <source>Show &amp;encoder states</source>
        <translation>Afficher les états de l&apos;&amp;encodeur</translation>
    </message>
    <message>
        <source>Show &amp;values in cells</source>
        <translation>Afficher les &amp;valeurs dans les cases</translation>
    </message>
    <message>
        <source>&amp;Grey-scale colours</source>
        <translation>Niveaux de &amp;gris</translation>
    </message>
    <message>
        <source>&amp;Words (merge sub-word pieces)</source>
        <translation>&amp;Mots (regrouper les sous-mots)</translation>
    </message>
    <message>
        <source>The heatmap over the words of the text: a source word&apos;s piece columns summed, a target word&apos;s piece rows averaged (the encoder panel, one column per piece, is left out)</source>
        <translation>La carte de chaleur sur les mots du texte&#xa0;: les colonnes des morceaux d&apos;un mot source additionnées, les lignes des morceaux d&apos;un mot cible moyennées (le panneau de l&apos;encodeur, une colonne par morceau, est omis)</translation>
    </message>
    <message>
        <source>&amp;Keep the &lt;/s&gt; column</source>
        <translation>Ga&amp;rder la colonne &lt;/s&gt;</translation>
    </message>
    <message>
        <source>Hi&amp;de the &lt;/s&gt; column</source>
        <translation>Mas&amp;quer la colonne &lt;/s&gt;</translation>
    </message>
    <message>
        <source>Hide &lt;/s&gt; and re&amp;normalise rows</source>
        <translation>Masquer &lt;/s&gt; et re&amp;normaliser les lignes</translation>
    </message>
    <message>
        <source>&amp;Export…</source>
        <translation>&amp;Exporter…</translation>
    </message>
    <message>
        <source>Export the alignment as PNG, SVG, PDF, CSV, JSON or Pharaoh links</source>
        <translation>Exporter l&apos;alignement en PNG, SVG, PDF, CSV, JSON ou liens Pharaoh</translation>
    </message>
    <message>
        <source>Choose candidate %1</source>
        <translation>Choisir le candidat %1</translation>
    </message>
    <message>
        <source>Open &amp;training run…</source>
        <translation>Ouvrir un en&amp;traînement…</translation>
    </message>
    <message>
        <source>Open a training run&apos;s snapshots</source>
        <translation>Ouvrir les instantanés d&apos;un entraînement</translation>
    </message>
    <message>
        <source>&amp;Compare with…</source>
        <translation>&amp;Comparer avec…</translation>
    </message>
    <message>
        <source>Decode the sentence with a second model beside this one</source>
        <translation>Décoder la phrase avec un second modèle à côté de celui-ci</translation>
    </message>
    <message>
        <source>Compare on a test set…</source>
        <translation>Comparer sur un jeu de test…</translation>
    </message>
    <message>
        <source>Both models&apos; BLEU on a test file</source>
        <translation>Le BLEU des deux modèles sur un fichier de test</translation>
    </message>
    <message>
        <source>Stop comparing</source>
        <translation>Arrêter la comparaison</translation>
    </message>
    <message>
        <source>Close the second model</source>
        <translation>Fermer le second modèle</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Quitter</translation>
    </message>
    <message>
        <source>Quit AlignScope</source>
        <translation>Quitter AlignScope</translation>
    </message>
    <message>
        <source>&amp;Next page</source>
        <translation>Page &amp;suivante</translation>
    </message>
    <message>
        <source>The lesson&apos;s next page</source>
        <translation>La page suivante de la leçon</translation>
    </message>
    <message>
        <source>&amp;Previous page</source>
        <translation>Page &amp;précédente</translation>
    </message>
    <message>
        <source>The lesson&apos;s previous page</source>
        <translation>La page précédente de la leçon</translation>
    </message>
    <message>
        <source>Presenter &amp;mode</source>
        <translation>&amp;Mode présentation</translation>
    </message>
    <message>
        <source>Large text, the whole screen, the panels in one column</source>
        <translation>Grand texte, tout l&apos;écran, les panneaux en une colonne</translation>
    </message>
    <message>
        <source>Show the page&apos;s p&amp;icture full size</source>
        <translation>&amp;Image de la page en taille réelle</translation>
    </message>
    <message>
        <source>The lesson page&apos;s picture, fitted to the screen</source>
        <translation>L&apos;image de la page de leçon, ajustée à l&apos;écran</translation>
    </message>
    <message>
        <source>&amp;Keys…</source>
        <translation>Touc&amp;hes…</translation>
    </message>
    <message>
        <source>Every key and what it does</source>
        <translation>Chaque touche et son rôle</translation>
    </message>
    <message>
        <source>&amp;End lesson</source>
        <translation>&amp;Terminer la leçon</translation>
    </message>
    <message>
        <source>Back to the view before the lesson</source>
        <translation>Revenir à l&apos;affichage d&apos;avant la leçon</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Fichier</translation>
    </message>
    <message>
        <source>Open &amp;recent</source>
        <translation>Ouvrir un fichier &amp;récent</translation>
    </message>
    <message>
        <source>&amp;Decode</source>
        <translation>&amp;Décodage</translation>
    </message>
    <message>
        <source>&amp;Lessons</source>
        <translation>&amp;Leçons</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Affichage</translation>
    </message>
    <message>
        <source>&amp;Beam hypotheses</source>
        <translation>&amp;Hypothèses du faisceau</translation>
    </message>
    <message>
        <source>Step e&amp;xplained</source>
        <translation>Étape e&amp;xpliquée</translation>
    </message>
    <message>
        <source>&amp;Lesson</source>
        <translation>Le&amp;çon</translation>
    </message>
    <message>
        <source>T&amp;raining run</source>
        <translation>En&amp;traînement</translation>
    </message>
    <message>
        <source>Com&amp;pare models</source>
        <translation>Com&amp;parer les modèles</translation>
    </message>
    <message>
        <source>Pict&amp;ure</source>
        <translation>&amp;Image</translation>
    </message>
    <message>
        <source>&amp;Heatmap</source>
        <translation>Carte de chale&amp;ur</translation>
    </message>
    <message>
        <source>&amp;Attention weights</source>
        <translation>Poids d&apos;&amp;attention</translation>
    </message>
    <message>
        <source>&amp;Gradient × input</source>
        <translation>&amp;Gradient × entrée</translation>
    </message>
    <message>
        <source>&amp;Integrated gradients</source>
        <translation>Gradients &amp;intégrés</translation>
    </message>
    <message>
        <source>&amp;Occlusion</source>
        <translation>&amp;Occlusion</translation>
    </message>
    <message>
        <source>Attention × o&amp;cclusion (where they agree)</source>
        <translation>Attention × o&amp;cclusion (là où elles concordent)</translation>
    </message>
    <message>
        <source>L&amp;inks</source>
        <translation>Lien&amp;s</translation>
    </message>
    <message>
        <source>&amp;None</source>
        <translation>A&amp;ucun</translation>
    </message>
    <message>
        <source>&amp;Argmax (each target word&apos;s peak)</source>
        <translation>&amp;Argmax (le maximum de chaque mot cible)</translation>
    </message>
    <message>
        <source>Argmax, &lt;/s&gt; &amp;skipped (each target word&apos;s peak among the source words)</source>
        <translation>Argmax, &lt;/s&gt; i&amp;gnoré (le maximum de chaque mot cible parmi les mots source)</translation>
    </message>
    <message>
        <source>&amp;Itermax (mutual peaks)</source>
        <translation>&amp;Itermax (maxima mutuels)</translation>
    </message>
    <message>
        <source>A&amp;greement with the reverse model</source>
        <translation>Accor&amp;d avec le modèle inverse</translation>
    </message>
    <message>
        <source>Agreement, grow-diag-&amp;final-and</source>
        <translation>Accord, grow-diag-&amp;final-and</translation>
    </message>
    <message>
        <source>&amp;System language</source>
        <translation>Langue du &amp;système</translation>
    </message>
    <message>
        <source>L&amp;anguage</source>
        <translation>&amp;Langue</translation>
    </message>
    <message>
        <source>AlignScope speaks %1.</source>
        <translation>AlignScope parle %1.</translation>
    </message>
    <message>
        <source>AlignScope speaks %1 from its next start.</source>
        <translation>AlignScope parlera %1 au prochain démarrage.</translation>
    </message>
    <message>
        <source>Decoding toolbar</source>
        <translation>Barre d&apos;outils Décodage</translation>
    </message>
    <message>
        <source>Beam search toolbar</source>
        <translation>Barre d&apos;outils Recherche en faisceau</translation>
    </message>
    <message>
        <source> beam width </source>
        <translation> largeur du faisceau </translation>
    </message>
    <message>
        <source>Modes and export toolbar</source>
        <translation>Barre d&apos;outils Modes et export</translation>
    </message>
    <message>
        <source>Dec&amp;oding toolbar</source>
        <translation>Barre d&apos;outils &amp;Décodage</translation>
    </message>
    <message>
        <source>Beam &amp;search toolbar</source>
        <translation>Barre d&apos;outils Recherche en faisce&amp;au</translation>
    </message>
    <message>
        <source>Modes and export &amp;toolbar</source>
        <translation>Barre d&apos;outils Modes et exp&amp;ort</translation>
    </message>
    <message>
        <source>Candidates</source>
        <translation>Candidats</translation>
    </message>
    <message>
        <source>Beam hypotheses</source>
        <translation>Hypothèses du faisceau</translation>
    </message>
    <message>
        <source>Step explained</source>
        <translation>Étape expliquée</translation>
    </message>
    <message>
        <source>Lesson</source>
        <translation>Leçon</translation>
    </message>
    <message>
        <source>Training run</source>
        <translation>Entraînement</translation>
    </message>
    <message>
        <source>Picture</source>
        <translation>Image</translation>
    </message>
    <message>
        <source>Compare models</source>
        <translation>Comparer les modèles</translation>
    </message>
    <message>
        <source>Beam width</source>
        <translation>Largeur du faisceau</translation>
    </message>
    <message>
        <source>exported %1</source>
        <translation>%1 exporté</translation>
    </message>
    <message>
        <source>Open model</source>
        <translation>Ouvrir un modèle</translation>
    </message>
    <message>
        <source>AlignScope models (*.pt);;All files (*)</source>
        <translation>Modèles AlignScope (*.pt);;Tous les fichiers (*)</translation>
    </message>
    <message>
        <source>Open a second model first (File → Compare with…)</source>
        <translation>Ouvrez d&apos;abord un second modèle (Fichier → Comparer avec…)</translation>
    </message>
    <message>
        <source>Compare with model</source>
        <translation>Comparer avec le modèle</translation>
    </message>
    <message>
        <source>Models (*.pt);;All files (*)</source>
        <translation>Modèles (*.pt);;Tous les fichiers (*)</translation>
    </message>
    <message>
        <source>Test pairs (source&lt;TAB&gt;target per line)</source>
        <translation>Paires de test (source&lt;TAB&gt;cible par ligne)</translation>
    </message>
    <message>
        <source>Text (*.tsv *.txt);;All files (*)</source>
        <translation>Texte (*.tsv *.txt);;Tous les fichiers (*)</translation>
    </message>
    <message>
        <source>Gold word links for AER (optional: Cancel for BLEU only)</source>
        <translation>Liens de référence pour l&apos;AER (facultatif&#xa0;: Annuler pour le BLEU seul)</translation>
    </message>
    <message>
        <source>Links (*.txt *.links);;All files (*)</source>
        <translation>Liens (*.txt *.links);;Tous les fichiers (*)</translation>
    </message>
    <message>
        <source>Open training run (a folder written by train --snapshots)</source>
        <translation>Ouvrir un entraînement (un dossier écrit par train --snapshots)</translation>
    </message>
    <message>
        <source>Type a sentence first: the animation shows it through every snapshot</source>
        <translation>Saisissez d&apos;abord une phrase&#xa0;: l&apos;animation la montre à travers chaque instantané</translation>
    </message>
    <message>
        <source>Choose that candidate</source>
        <translation>Choisir ce candidat</translation>
    </message>
    <message>
        <source>Leave presenter mode</source>
        <translation>Quitter le mode présentation</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>Touches</translation>
    </message>
    <message>
        <source>&amp;Candidates</source>
        <translation>&amp;Candidats</translation>
    </message>
</context>
<context>
    <name>PicturePanel</name>
    <message>
        <source>Click to see the picture full size (Ctrl+I)</source>
        <translation>Cliquez pour voir l&apos;image en taille réelle (Ctrl+I)</translation>
    </message>
</context>
<context>
    <name>QMenu</name>
    <message>
        <source>&amp;Open lesson file…</source>
        <translation>&amp;Ouvrir un fichier de leçon…</translation>
    </message>
    <message>
        <source>Open lesson</source>
        <translation>Ouvrir une leçon</translation>
    </message>
    <message>
        <source>Lessons (*.json)</source>
        <translation>Leçons (*.json)</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>PNG image (*.png)</source>
        <translation>Image PNG (*.png)</translation>
    </message>
    <message>
        <source>SVG vector image (*.svg)</source>
        <translation>Image vectorielle SVG (*.svg)</translation>
    </message>
    <message>
        <source>PDF document (*.pdf)</source>
        <translation>Document PDF (*.pdf)</translation>
    </message>
    <message>
        <source>CSV matrix (*.csv)</source>
        <translation>Matrice CSV (*.csv)</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <source>Pharaoh links (*.align)</source>
        <translation>Liens Pharaoh (*.align)</translation>
    </message>
    <message>
        <source>Animated GIF (*.gif)</source>
        <translation>GIF animé (*.gif)</translation>
    </message>
    <message>
        <source>PNG frames, NAME-stepKK.png (*.png)</source>
        <translation>Images PNG, NAME-stepKK.png (*.png)</translation>
    </message>
    <message>
        <source>Interactive web page (*.html)</source>
        <translation>Page web interactive (*.html)</translation>
    </message>
</context>
<context>
    <name>SentencePanel</name>
    <message>
        <source>Type a source sentence and press Enter</source>
        <translation>Saisissez une phrase source et appuyez sur Entrée</translation>
    </message>
    <message>
        <source>Target sentence for teacher forcing</source>
        <translation>Phrase cible pour le forçage de l&apos;enseignant</translation>
    </message>
    <message>
        <source>The source as the model sees it; unknown words are marked</source>
        <translation>La source telle que le modèle la voit&#xa0;; les mots inconnus sont marqués</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Source</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>Tokens</translation>
    </message>
    <message>
        <source>Target</source>
        <translation>Cible</translation>
    </message>
    <message>
        <source>Translation</source>
        <translation>Traduction</translation>
    </message>
    <message>
        <source>unknown to the model</source>
        <translation>inconnu du modèle</translation>
    </message>
</context>
<context>
    <name>StatusLine</name>
    <message>
        <source>no model</source>
        <translation>aucun modèle</translation>
    </message>
    <message>
        <source>%1 · %2 source tokens · beam hypothesis %3 of %4, %5 tokens</source>
        <translation>%1 · %2 tokens source · hypothèse %3 sur %4 du faisceau, %5 tokens</translation>
    </message>
    <message>
        <source>Teacher forcing: type the target sentence in Target and press Enter</source>
        <translation>Forçage de l&apos;enseignant&#xa0;: saisissez la phrase cible dans Cible et appuyez sur Entrée</translation>
    </message>
    <message>
        <source>%1 · %2 source tokens · teacher forcing, step %3 of %4</source>
        <translation>%1 · %2 tokens source · forçage de l&apos;enseignant, étape %3 sur %4</translation>
    </message>
    <message>
        <source>%1 · %2 source tokens · step %3%4</source>
        <translation>%1 · %2 tokens source · étape %3%4</translation>
    </message>
    <message>
        <source> · finished</source>
        <translation> · terminé</translation>
    </message>
    <message>
        <source> · %1 links (%2)</source>
        <translation> · %1 liens (%2)</translation>
    </message>
    <message>
        <source> · no links: %1</source>
        <translation> · aucun lien&#xa0;: %1</translation>
    </message>
</context>
<context>
    <name>StepExplainedPanel</name>
    <message>
        <source>&lt;b&gt;Press Step&lt;/b&gt; to see one decoding step explained with this model&apos;s numbers.</source>
        <translation>&lt;b&gt;Appuyez sur Étape&lt;/b&gt; pour voir une étape de décodage expliquée avec les nombres de ce modèle.</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1. Query&lt;/b&gt;: the new decoder state s&lt;sub&gt;%2&lt;/sub&gt; (%3 numbers, length %4): this model attends after its recurrent cell.</source>
        <translation>&lt;b&gt;%1. Requête&lt;/b&gt;&#xa0;: le nouvel état du décodeur s&lt;sub&gt;%2&lt;/sub&gt; (%3 nombres, norme %4)&#xa0;: ce modèle porte son attention après sa cellule récurrente.</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1. Query&lt;/b&gt;: s&apos;&lt;sub&gt;%2&lt;/sub&gt; = %3(s&lt;sub&gt;%4&lt;/sub&gt;, emb(&lt;i&gt;%5&lt;/i&gt;)), the previous state (length %6) after a first cell has read the word just written: this model knows “&lt;i&gt;%5&lt;/i&gt;” before it looks.</source>
        <translation>&lt;b&gt;%1. Requête&lt;/b&gt;&#xa0;: s&apos;&lt;sub&gt;%2&lt;/sub&gt; = %3(s&lt;sub&gt;%4&lt;/sub&gt;, emb(&lt;i&gt;%5&lt;/i&gt;)), l&apos;état précédent (norme %6) après qu&apos;une première cellule a lu le mot qui vient d&apos;être écrit&#xa0;: ce modèle connaît «&#xa0;&lt;i&gt;%5&lt;/i&gt;&#xa0;» avant de regarder.</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1. Query&lt;/b&gt;: the previous decoder state s&lt;sub&gt;%2&lt;/sub&gt; (%3 numbers, length %4).</source>
        <translation>&lt;b&gt;%1. Requête&lt;/b&gt;&#xa0;: l&apos;état précédent du décodeur s&lt;sub&gt;%2&lt;/sub&gt; (%3 nombres, norme %4).</translation>
    </message>
    <message>
        <source> Projected: W %1 has length %2.</source>
        <translation> Projeté&#xa0;: W %1 a pour norme %2.</translation>
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
        <translation>e&lt;sub&gt;t,i&lt;/sub&gt; = MLP([h&lt;sub&gt;i&lt;/sub&gt;; %1]), un petit réseau appliqué à la paire</translation>
    </message>
    <message>
        <source>e&lt;sub&gt;t,i&lt;/sub&gt; = v&lt;sup&gt;T&lt;/sup&gt; tanh(W %1 + U h&lt;sub&gt;i&lt;/sub&gt;)</source>
        <translation>e&lt;sub&gt;t,i&lt;/sub&gt; = v&lt;sup&gt;T&lt;/sup&gt; tanh(W %1 + U h&lt;sub&gt;i&lt;/sub&gt;)</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1. Energies&lt;/b&gt;: this model has no attention; every step uses the same context, the encoder&apos;s final state.</source>
        <translation>&lt;b&gt;%1. Énergies&lt;/b&gt;&#xa0;: ce modèle n&apos;a pas d&apos;attention&#xa0;; chaque étape utilise le même contexte, le dernier état de l&apos;encodeur.</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1. Energies&lt;/b&gt; %2: this model does not report its energies.</source>
        <translation>&lt;b&gt;%1. Énergies&lt;/b&gt; %2&#xa0;: ce modèle ne fournit pas ses énergies.</translation>
    </message>
    <message>
        <source>&lt;b&gt;%5. Energies&lt;/b&gt; %1, one per source token: e&lt;sub&gt;%2,%3&lt;/sub&gt; = %4 is the largest.</source>
        <translation>&lt;b&gt;%5. Énergies&lt;/b&gt; %1, une par token source&#xa0;: e&lt;sub&gt;%2,%3&lt;/sub&gt; = %4 est la plus grande.</translation>
    </message>
    <message>
        <source>&lt;b&gt;%2. Softmax&lt;/b&gt;: not used; alpha is shown uniform (1/%1 each) only as a placeholder.</source>
        <translation>&lt;b&gt;%2. Softmax&lt;/b&gt;&#xa0;: non utilisée&#xa0;; alpha est affiché uniforme (1/%1 chacun) seulement pour tenir la place.</translation>
    </message>
    <message>
        <source>&lt;b&gt;%6. Softmax&lt;/b&gt;: alpha&lt;sub&gt;t,i&lt;/sub&gt; = exp(e&lt;sub&gt;t,i&lt;/sub&gt;) / &amp;Sigma;&lt;sub&gt;j&lt;/sub&gt; exp(e&lt;sub&gt;t,j&lt;/sub&gt;). For &lt;i&gt;%1&lt;/i&gt;: exp(%2) / %3 = &lt;b&gt;%4&lt;/b&gt;. The weights sum to %5.</source>
        <translation>&lt;b&gt;%6. Softmax&lt;/b&gt;&#xa0;: alpha&lt;sub&gt;t,i&lt;/sub&gt; = exp(e&lt;sub&gt;t,i&lt;/sub&gt;) / &amp;Sigma;&lt;sub&gt;j&lt;/sub&gt; exp(e&lt;sub&gt;t,j&lt;/sub&gt;). Pour &lt;i&gt;%1&lt;/i&gt;&#xa0;: exp(%2) / %3 = &lt;b&gt;%4&lt;/b&gt;. La somme des poids vaut %5.</translation>
    </message>
    <message>
        <source>&lt;b&gt;%4. Softmax&lt;/b&gt;: alpha&lt;sub&gt;t,%1&lt;/sub&gt; = &lt;b&gt;%2&lt;/b&gt; is the largest weight; the weights sum to %3.%5</source>
        <translation>&lt;b&gt;%4. Softmax&lt;/b&gt;&#xa0;: alpha&lt;sub&gt;t,%1&lt;/sub&gt; = &lt;b&gt;%2&lt;/b&gt; est le plus grand poids&#xa0;; la somme des poids vaut %3.%5</translation>
    </message>
    <message>
        <source> The model&apos;s softmax also covers its own padding positions: their share is the &lt;i&gt;&amp;lt;padding&amp;gt;&lt;/i&gt; column, %1.</source>
        <translation> La softmax du modèle couvre aussi ses propres positions de remplissage&#xa0;: leur part est la colonne &lt;i&gt;&amp;lt;padding&amp;gt;&lt;/i&gt;, %1.</translation>
    </message>
    <message>
        <source>&lt;b&gt;%2. Context&lt;/b&gt;: c = the encoder&apos;s final state, the same at every step (length %1).</source>
        <translation>&lt;b&gt;%2. Contexte&lt;/b&gt;&#xa0;: c = le dernier état de l&apos;encodeur, le même à chaque étape (norme %1).</translation>
    </message>
    <message>
        <source>&lt;b&gt;%6. Context&lt;/b&gt;: c&lt;sub&gt;%1&lt;/sub&gt; = &amp;Sigma;&lt;sub&gt;i&lt;/sub&gt; alpha&lt;sub&gt;%1,i&lt;/sub&gt; h&lt;sub&gt;i&lt;/sub&gt; = %2%3 (%4 numbers, length %5; the c_t column beside the encoder states).</source>
        <translation>&lt;b&gt;%6. Contexte&lt;/b&gt;&#xa0;: c&lt;sub&gt;%1&lt;/sub&gt; = &amp;Sigma;&lt;sub&gt;i&lt;/sub&gt; alpha&lt;sub&gt;%1,i&lt;/sub&gt; h&lt;sub&gt;i&lt;/sub&gt; = %2%3 (%4 nombres, norme %5&#xa0;; la colonne c_t à côté des états de l&apos;encodeur).</translation>
    </message>
    <message>
        <source>&lt;b&gt;1. Decoder update&lt;/b&gt; (%1), before any attention: s&lt;sub&gt;%2&lt;/sub&gt; = %1(s&lt;sub&gt;%3&lt;/sub&gt;, [emb(&lt;i&gt;%4&lt;/i&gt;)%5]): the state moves by %6 (length %7 → %8).</source>
        <translation>&lt;b&gt;1. Mise à jour du décodeur&lt;/b&gt; (%1), avant toute attention&#xa0;: s&lt;sub&gt;%2&lt;/sub&gt; = %1(s&lt;sub&gt;%3&lt;/sub&gt;, [emb(&lt;i&gt;%4&lt;/i&gt;)%5])&#xa0;: l&apos;état se déplace de %6 (norme %7 → %8).</translation>
    </message>
    <message>
        <source>; the previous step&apos;s attentional output</source>
        <translation>&#xa0;; la sortie attentionnelle de l&apos;étape précédente</translation>
    </message>
    <message>
        <source>&lt;b&gt;5. Decoder update&lt;/b&gt; (%1, a second cell): s&lt;sub&gt;%2&lt;/sub&gt; = %1(s&apos;&lt;sub&gt;%2&lt;/sub&gt;, c&lt;sub&gt;%2&lt;/sub&gt;): from s&lt;sub&gt;%3&lt;/sub&gt; the state moves by %4 (length %5 → %6).</source>
        <translation>&lt;b&gt;5. Mise à jour du décodeur&lt;/b&gt; (%1, une seconde cellule)&#xa0;: s&lt;sub&gt;%2&lt;/sub&gt; = %1(s&apos;&lt;sub&gt;%2&lt;/sub&gt;, c&lt;sub&gt;%2&lt;/sub&gt;)&#xa0;: depuis s&lt;sub&gt;%3&lt;/sub&gt;, l&apos;état se déplace de %4 (norme %5 → %6).</translation>
    </message>
    <message>
        <source>&lt;b&gt;5. Decoder update&lt;/b&gt; (%1): s&lt;sub&gt;%2&lt;/sub&gt; = %1(s&lt;sub&gt;%3&lt;/sub&gt;, [emb(&lt;i&gt;%4&lt;/i&gt;); c&lt;sub&gt;%2&lt;/sub&gt;]): the state moves by %5 (length %6 → %7).</source>
        <translation>&lt;b&gt;5. Mise à jour du décodeur&lt;/b&gt; (%1)&#xa0;: s&lt;sub&gt;%2&lt;/sub&gt; = %1(s&lt;sub&gt;%3&lt;/sub&gt;, [emb(&lt;i&gt;%4&lt;/i&gt;); c&lt;sub&gt;%2&lt;/sub&gt;])&#xa0;: l&apos;état se déplace de %5 (norme %6 → %7).</translation>
    </message>
    <message>
        <source>[s&lt;sub&gt;%1&lt;/sub&gt;; c&lt;sub&gt;%1&lt;/sub&gt;; emb(&lt;i&gt;%2&lt;/i&gt;)]</source>
        <translation>[s&lt;sub&gt;%1&lt;/sub&gt;; c&lt;sub&gt;%1&lt;/sub&gt;; emb(&lt;i&gt;%2&lt;/i&gt;)]</translation>
    </message>
    <message>
        <source>s&lt;sub&gt;%1&lt;/sub&gt; and c&lt;sub&gt;%1&lt;/sub&gt;</source>
        <translation>s&lt;sub&gt;%1&lt;/sub&gt; et c&lt;sub&gt;%1&lt;/sub&gt;</translation>
    </message>
    <message>
        <source>the new state s&lt;sub&gt;%1&lt;/sub&gt;</source>
        <translation>le nouvel état s&lt;sub&gt;%1&lt;/sub&gt;</translation>
    </message>
    <message>
        <source> A byte piece: one UTF-8 byte (0x%1) of a character the vocabulary spells byte by byte.</source>
        <translation> Un morceau-octet&#xa0;: un octet UTF-8 (0x%1) d&apos;un caractère que le vocabulaire écrit octet par octet.</translation>
    </message>
    <message>
        <source> A piece that starts a new word (its ▁ is the space before it).</source>
        <translation> Un morceau qui commence un nouveau mot (son ▁ est l&apos;espace qui le précède).</translation>
    </message>
    <message>
        <source> A piece that continues the word before it (no ▁).</source>
        <translation> Un morceau qui prolonge le mot précédent (sans ▁).</translation>
    </message>
    <message>
        <source>&lt;b&gt;6. Output&lt;/b&gt;: a softmax over the whole target vocabulary from %1 (top %3 shown). %4 &lt;i&gt;%5&lt;/i&gt;, p = &lt;b&gt;%6&lt;/b&gt;.%7</source>
        <translation>&lt;b&gt;6. Sortie&lt;/b&gt;&#xa0;: une softmax sur tout le vocabulaire cible à partir de %1 (les %3 premiers affichés). %4 &lt;i&gt;%5&lt;/i&gt;, p = &lt;b&gt;%6&lt;/b&gt;.%7</translation>
    </message>
    <message>
        <source>Beam search kept:</source>
        <translation>Gardé par la recherche en faisceau&#xa0;:</translation>
    </message>
    <message>
        <source>Forced:</source>
        <translation>Imposé&#xa0;:</translation>
    </message>
    <message>
        <source>Chosen:</source>
        <translation>Choisi&#xa0;:</translation>
    </message>
    <message>
        <source>&lt;b&gt;Attribution&lt;/b&gt; (%1): %2&lt;br&gt;&lt;i&gt;%3&lt;/i&gt;</source>
        <translation>&lt;b&gt;Attribution&lt;/b&gt; (%1)&#xa0;: %2&lt;br&gt;&lt;i&gt;%3&lt;/i&gt;</translation>
    </message>
    <message>
        <source>the same top source token (&lt;i&gt;%1&lt;/i&gt;)</source>
        <translation>le même token source en tête (&lt;i&gt;%1&lt;/i&gt;)</translation>
    </message>
    <message>
        <source>different top source tokens: attention &lt;i&gt;%1&lt;/i&gt;, %2 &lt;i&gt;%3&lt;/i&gt;</source>
        <translation>des tokens source différents en tête&#xa0;: attention &lt;i&gt;%1&lt;/i&gt;, %2 &lt;i&gt;%3&lt;/i&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;Attribution&lt;/b&gt; (%1, shown in the heatmap): %2&lt;br&gt;Against this step&apos;s attention: rank correlation &amp;rho; = &lt;b&gt;%3&lt;/b&gt;, %4, Jensen–Shannon divergence &lt;b&gt;%5&lt;/b&gt; (0: the same distribution, 1: nothing in common; the attribution&apos;s magnitudes as a distribution).</source>
        <translation>&lt;b&gt;Attribution&lt;/b&gt; (%1, affichée dans la carte de chaleur)&#xa0;: %2&lt;br&gt;Face à l&apos;attention de cette étape&#xa0;: corrélation de rang &amp;rho; = &lt;b&gt;%3&lt;/b&gt;, %4, divergence de Jensen-Shannon &lt;b&gt;%5&lt;/b&gt; (0&#xa0;: la même distribution, 1&#xa0;: rien en commun&#xa0;; les amplitudes de l&apos;attribution prises comme distribution).</translation>
    </message>
    <message>
        <source>computing…</source>
        <translation>calcul en cours…</translation>
    </message>
</context>
<context>
    <name>TimelinePanel</name>
    <message>
        <source>Export animation…</source>
        <translation>Exporter l&apos;animation…</translation>
    </message>
    <message>
        <source>The sentence through every snapshot, as an animated GIF or numbered PNG frames</source>
        <translation>La phrase à travers chaque instantané, en GIF animé ou en images PNG numérotées</translation>
    </message>
    <message>
        <source>update (log scale)</source>
        <translation>mise à jour (échelle log)</translation>
    </message>
    <message>
        <source>loss (NLL/token)</source>
        <translation>perte (NLL/token)</translation>
    </message>
    <message>
        <source>The heatmap is this snapshot&apos;s alignment of the sentence, forced along one target.</source>
        <translation>La carte de chaleur est l&apos;alignement de la phrase par cet instantané, imposé le long d&apos;une cible.</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: snapshot %2 of %3, after update %4 of %5 (training loss %6)</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;&#xa0;: instantané %2 sur %3, après la mise à jour %4 sur %5 (perte d&apos;entraînement %6)</translation>
    </message>
</context>
<context>
    <name>TrainingRunController</name>
    <message>
        <source>&apos;%1&apos; reads other vocabularies than &apos;%2&apos;: the snapshots of one run share one (does the folder mix two runs?)</source>
        <translation>«&#xa0;%1&#xa0;» lit d&apos;autres vocabulaires que «&#xa0;%2&#xa0;»&#xa0;: les instantanés d&apos;un même entraînement en partagent un (le dossier mélange-t-il deux entraînements&#xa0;?)</translation>
    </message>
</context>
</TS>
