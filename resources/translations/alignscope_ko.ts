<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ko">
<context>
    <name>AlignmentComparisonFigure</name>
    <message>
        <source>alpha, merged to words</source>
        <translation>alpha, 단어 단위로 합침</translation>
    </message>
    <message>
        <source>attention weight alpha</source>
        <translation>어텐션 가중치 alpha</translation>
    </message>
    <message>
        <source>alpha A − alpha B</source>
        <translation>alpha A − alpha B</translation>
    </message>
    <message>
        <source>A − B (%1 of %2 rows agree)</source>
        <translation>A − B (%2개 행 중 %1개 일치)</translation>
    </message>
    <message>
        <source>source words</source>
        <translation>원문 단어</translation>
    </message>
    <message>
        <source>source tokens</source>
        <translation>원문 토큰</translation>
    </message>
    <message>
        <source>target words</source>
        <translation>목표 단어</translation>
    </message>
    <message>
        <source>target tokens</source>
        <translation>목표 토큰</translation>
    </message>
    <message>
        <source>%1: no row %2</source>
        <translation>%1: %2행 없음</translation>
    </message>
    <message>
        <source>the targets differ at row %1: no difference</source>
        <translation>%1행에서 목표가 다름: 차이 없음</translation>
    </message>
</context>
<context>
    <name>AlignmentFigure</name>
    <message>
        <source>encoder states h_i (one column per source token)</source>
        <translation>인코더 상태 h_i (원문 토큰마다 한 열)</translation>
    </message>
    <message>
        <source>encoder states h_i
(one column per source token)</source>
        <translation>인코더 상태 h_i
(원문 토큰마다 한 열)</translation>
    </message>
    <message>
        <source> (signed)</source>
        <translation> (부호 있음)</translation>
    </message>
    <message>
        <source>alpha (uniform: no attention)</source>
        <translation>alpha (균등: 어텐션 없음)</translation>
    </message>
    <message>
        <source>attention weight alpha</source>
        <translation>어텐션 가중치 alpha</translation>
    </message>
    <message>
        <source>source words</source>
        <translation>원문 단어</translation>
    </message>
    <message>
        <source>merged from pieces: a word&apos;s columns summed</source>
        <translation>조각에서 합침: 한 단어의 열을 더함</translation>
    </message>
    <message>
        <source>source</source>
        <translation>원문</translation>
    </message>
    <message>
        <source>%1   (word? = not in the model&apos;s vocabulary: read as &lt;unk&gt;)</source>
        <translation>%1   (단어? = 모델 어휘에 없음: &lt;unk&gt;로 읽음)</translation>
    </message>
    <message>
        <source>given</source>
        <translation>주어짐</translation>
    </message>
    <message>
        <source>beam hypothesis %1</source>
        <translation>빔 가설 %1</translation>
    </message>
    <message>
        <source>decoded</source>
        <translation>디코딩됨</translation>
    </message>
    <message>
        <source>%1 of %2 forced</source>
        <translation>%2개 중 %1개 강제</translation>
    </message>
    <message>
        <source>target</source>
        <translation>목표</translation>
    </message>
    <message>
        <source>%1, words: rows averaged</source>
        <translation>%1, 단어: 행 평균</translation>
    </message>
    <message>
        <source>fwd →</source>
        <translation>순방향 →</translation>
    </message>
    <message>
        <source>← bwd</source>
        <translation>← 역방향</translation>
    </message>
    <message>
        <source>source %1 &apos;%2&apos; → step %3 &apos;%4&apos;: %5 = %6</source>
        <translation>원문 %1 &apos;%2&apos; → %3단계 &apos;%4&apos;: %5 = %6</translation>
    </message>
    <message>
        <source>h_%1 (%2), dimension %3: %4</source>
        <translation>h_%1 (%2), %3번째 차원: %4</translation>
    </message>
</context>
<context>
    <name>BeamPanel</name>
    <message>
        <source>score · hypothesis (score = log P / length, higher is better; ↑↓ to pick)</source>
        <translation>점수 · 가설 (점수 = log P / 길이, 높을수록 좋음; ↑↓로 선택)</translation>
    </message>
</context>
<context>
    <name>CandidatesView</name>
    <message>
        <source>Next-token candidates of this step. Click one, press its number (1-9), or pick it with Up/Down and Enter, to force it and decode on from there. With a sub-word model, a piece starting with ▁ begins a word; one without it continues the word before.</source>
        <translation>이 단계의 다음 토큰 후보입니다. 후보를 클릭하거나, 번호(1–9)를 누르거나, ↑/↓와 Enter로 고르면 그 토큰을 강제하고 거기서부터 이어서 디코딩합니다. 서브워드 모델에서 ▁로 시작하는 조각은 새 단어를 시작하고, ▁가 없는 조각은 앞 단어를 이어 갑니다.</translation>
    </message>
    <message>
        <source>not in top %1: %2</source>
        <translation>상위 %1개 밖: %2</translation>
    </message>
    <message>
        <source>Step to see the next-token candidates</source>
        <translation>한 단계 진행하면 다음 토큰 후보가 보입니다</translation>
    </message>
</context>
<context>
    <name>ComparePanel</name>
    <message>
        <source>Open a second model with File → Compare with…</source>
        <translation>파일 → 다른 모델과 비교…로 두 번째 모델을 여세요</translation>
    </message>
    <message>
        <source>The models read the source in different tokens: both are merged to words (a source word&apos;s columns summed, a target word&apos;s rows averaged).</source>
        <translation>두 모델이 원문을 서로 다른 토큰으로 읽습니다: 둘 다 단어 단위로 합칩니다(원문 단어의 열은 더하고, 목표 단어의 행은 평균).</translation>
    </message>
    <message>
        <source>Both models read the source in the same tokens, merged to words here (View → Words: a source word&apos;s columns summed, a target word&apos;s rows averaged).</source>
        <translation>두 모델이 원문을 같은 토큰으로 읽으며, 여기서는 단어 단위로 합쳤습니다(보기 → 단어: 원문 단어의 열은 더하고, 목표 단어의 행은 평균).</translation>
    </message>
    <message>
        <source>Both models read the source in the same tokens: compared token by token.</source>
        <translation>두 모델이 원문을 같은 토큰으로 읽습니다: 토큰별로 비교합니다.</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1 of %2 rows agree&lt;/b&gt;; mean |A − B| %3, largest %4 (grey rows: the targets differ there).</source>
        <translation>&lt;b&gt;%2개 행 중 %1개 일치&lt;/b&gt;; 평균 |A − B| %3, 최대 %4 (회색 행: 목표가 다른 곳).</translation>
    </message>
    <message>
        <source>&lt;b&gt;A&lt;/b&gt; %1: &lt;i&gt;%2&lt;/i&gt;&lt;br&gt;&lt;b&gt;B&lt;/b&gt; %3: &lt;i&gt;%4&lt;/i&gt;&lt;br&gt;%5</source>
        <translation>&lt;b&gt;A&lt;/b&gt; %1: &lt;i&gt;%2&lt;/i&gt;&lt;br&gt;&lt;b&gt;B&lt;/b&gt; %3: &lt;i&gt;%4&lt;/i&gt;&lt;br&gt;%5</translation>
    </message>
    <message>
        <source>&lt;b&gt;Test set&lt;/b&gt; %1 (%2 sources, %3; cased BLEU over words and punctuation)&lt;table cellspacing=&apos;6&apos;&gt;&lt;tr&gt;&lt;th&gt;&lt;/th&gt;&lt;th align=&apos;left&apos;&gt;model&lt;/th&gt;&lt;th&gt;BLEU&lt;/th&gt;</source>
        <translation>&lt;b&gt;테스트 세트&lt;/b&gt; %1 (원문 %2개, %3; 대소문자를 구분하여 단어와 문장 부호로 잰 BLEU)&lt;table cellspacing=&apos;6&apos;&gt;&lt;tr&gt;&lt;th&gt;&lt;/th&gt;&lt;th align=&apos;left&apos;&gt;모델&lt;/th&gt;&lt;th&gt;BLEU&lt;/th&gt;</translation>
    </message>
    <message>
        <source>&lt;th&gt;AER&lt;/th&gt;&lt;th&gt;precision&lt;/th&gt;&lt;th&gt;recall&lt;/th&gt;</source>
        <translation>&lt;th&gt;AER&lt;/th&gt;&lt;th&gt;정밀도&lt;/th&gt;&lt;th&gt;재현율&lt;/th&gt;</translation>
    </message>
    <message>
        <source>AER: attention forced along each reference, argmax links over words; lower is better.</source>
        <translation>AER: 각 참조 번역을 따라 어텐션을 강제하고, 단어 단위 argmax로 연결; 낮을수록 좋음.</translation>
    </message>
</context>
<context>
    <name>ComparisonController</name>
    <message>
        <source>Model B could not be opened: %1</source>
        <translation>모델 B를 열 수 없습니다: %1</translation>
    </message>
    <message>
        <source>Model B (%1) cannot take this: %2</source>
        <translation>모델 B(%1)는 이 입력을 처리할 수 없습니다: %2</translation>
    </message>
    <message>
        <source>Opening %1…</source>
        <translation>%1 여는 중…</translation>
    </message>
    <message>
        <source>Compare models</source>
        <translation>모델 비교</translation>
    </message>
    <message>
        <source>Open a second model with File → Compare with…</source>
        <translation>파일 → 다른 모델과 비교…로 두 번째 모델을 여세요</translation>
    </message>
    <message>
        <source>Compare models: A = %1, B = %2</source>
        <translation>모델 비교: A = %1, B = %2</translation>
    </message>
    <message>
        <source>Model B is decoding the sentence…</source>
        <translation>모델 B가 문장을 디코딩하는 중…</translation>
    </message>
    <message>
        <source>Type a sentence: both models decode it.</source>
        <translation>문장을 입력하세요: 두 모델이 모두 디코딩합니다.</translation>
    </message>
    <message>
        <source>Scoring both models on %1…</source>
        <translation>%1에서 두 모델을 채점하는 중…</translation>
    </message>
</context>
<context>
    <name>DecodingDocument</name>
    <message>
        <source>attributing the target (heatmap: %1)</source>
        <translation>목표의 기여도를 계산하는 동안(히트맵: %1)</translation>
    </message>
    <message>
        <source>aligning the pair for View &gt; Links</source>
        <translation>보기 &gt; 연결을 위해 문장 쌍을 정렬하는 동안</translation>
    </message>
    <message>
        <source>aligning the pair for View &gt; Links with the reverse model &apos;%1&apos;</source>
        <translation>보기 &gt; 연결을 위해 역방향 모델 &apos;%1&apos;로 문장 쌍을 정렬하는 동안</translation>
    </message>
    <message>
        <source>unexpected error: %1</source>
        <translation>예기치 않은 오류: %1</translation>
    </message>
    <message>
        <source>encoding the sentence</source>
        <translation>문장을 인코딩하는 동안</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>%1단계에서</translation>
    </message>
    <message>
        <source>The model</source>
        <translation>모델</translation>
    </message>
    <message>
        <source>%1 did not finish %2 within %3 s: its code may loop for ever.</source>
        <translation>%1이(가) %2 %3초 안에 끝나지 않았습니다: 코드가 끝없이 반복될 수 있습니다.</translation>
    </message>
    <message>
        <source>%1 did not stop %2 when cancelled.</source>
        <translation>%1이(가) %2 취소 후에도 멈추지 않았습니다.</translation>
    </message>
    <message>
        <source> View &gt; Links is set back to None.</source>
        <translation> 보기 &gt; 연결이 없음으로 되돌아갔습니다.</translation>
    </message>
    <message>
        <source> The sentence was set aside; the model stays open.</source>
        <translation> 문장은 제쳐 두었고, 모델은 열린 채로 있습니다.</translation>
    </message>
</context>
<context>
    <name>ExportDialog</name>
    <message>
        <source>Export alignment</source>
        <translation>정렬 내보내기</translation>
    </message>
    <message>
        <source>PNG image</source>
        <translation>PNG 이미지</translation>
    </message>
    <message>
        <source>SVG (vector, text as text)</source>
        <translation>SVG (벡터, 글자는 글자로)</translation>
    </message>
    <message>
        <source>PDF (vector, text as text)</source>
        <translation>PDF (벡터, 글자는 글자로)</translation>
    </message>
    <message>
        <source>CSV (the alpha matrix)</source>
        <translation>CSV (alpha 행렬)</translation>
    </message>
    <message>
        <source>JSON (tokens, matrix, model, options)</source>
        <translation>JSON (토큰, 행렬, 모델, 옵션)</translation>
    </message>
    <message>
        <source>Pharaoh links (i-j)</source>
        <translation>Pharaoh 연결 (i-j)</translation>
    </message>
    <message>
        <source>Web page (interactive, one file)</source>
        <translation>웹 페이지 (대화형, 파일 하나)</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>찾아보기…</translation>
    </message>
    <message>
        <source> dpi</source>
        <translation> dpi</translation>
    </message>
    <message>
        <source>Include the encoder-states panel</source>
        <translation>인코더 상태 패널 포함</translation>
    </message>
    <message>
        <source>Viridis (perceptually uniform)</source>
        <translation>Viridis (지각적으로 균일)</translation>
    </message>
    <message>
        <source>Grey-scale (for print)</source>
        <translation>회색조 (인쇄용)</translation>
    </message>
    <message>
        <source>Write the values in the cells</source>
        <translation>셀에 값 쓰기</translation>
    </message>
    <message>
        <source> pt</source>
        <translation> pt</translation>
    </message>
    <message>
        <source>Keep the &lt;/s&gt; column</source>
        <translation>&lt;/s&gt; 열 유지</translation>
    </message>
    <message>
        <source>Drop the &lt;/s&gt; column</source>
        <translation>&lt;/s&gt; 열 빼기</translation>
    </message>
    <message>
        <source>Drop &lt;/s&gt; and renormalise rows</source>
        <translation>&lt;/s&gt; 빼고 행 다시 정규화</translation>
    </message>
    <message>
        <source>No title</source>
        <translation>제목 없음</translation>
    </message>
    <message>
        <source>Frame the last step and its peak</source>
        <translation>마지막 단계와 최댓값에 테두리</translation>
    </message>
    <message>
        <source>The steps of this sentence</source>
        <translation>이 문장의 단계들</translation>
    </message>
    <message>
        <source>The training run&apos;s snapshots (the sentence forced along one target)</source>
        <translation>학습 실행의 스냅숏 (문장을 한 목표에 강제)</translation>
    </message>
    <message>
        <source>Format</source>
        <translation>형식</translation>
    </message>
    <message>
        <source>File</source>
        <translation>파일</translation>
    </message>
    <message>
        <source>Animate</source>
        <translation>애니메이션</translation>
    </message>
    <message>
        <source>Resolution</source>
        <translation>해상도</translation>
    </message>
    <message>
        <source>Colours</source>
        <translation>색</translation>
    </message>
    <message>
        <source>Font size</source>
        <translation>글꼴 크기</translation>
    </message>
    <message>
        <source>&lt;/s&gt; column</source>
        <translation>&lt;/s&gt; 열</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>제목</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>내보내기</translation>
    </message>
    <message>
        <source>Animated GIF (the run&apos;s snapshots, one frame each)</source>
        <translation>애니메이션 GIF (실행의 스냅숏마다 한 프레임)</translation>
    </message>
    <message>
        <source>Animated GIF (the steps, one frame each)</source>
        <translation>애니메이션 GIF (단계마다 한 프레임)</translation>
    </message>
    <message>
        <source>PNG frames (the snapshots as NAME-snapshot01.png, ...)</source>
        <translation>PNG 프레임 (스냅숏을 NAME-snapshot01.png, … 로)</translation>
    </message>
    <message>
        <source>PNG frames (the steps as NAME-step01.png, ...)</source>
        <translation>PNG 프레임 (단계를 NAME-step01.png, … 로)</translation>
    </message>
    <message>
        <source>%1 × %2 in</source>
        <translation>%1 × %2 인치</translation>
    </message>
    <message>
        <source>%1, %2 × %3 pixels</source>
        <translation>%1, %2 × %3 픽셀</translation>
    </message>
    <message>
        <source>Nothing to export.</source>
        <translation>내보낼 것이 없습니다.</translation>
    </message>
    <message>
        <source>Choose a file to export to.</source>
        <translation>내보낼 파일을 고르세요.</translation>
    </message>
    <message>
        <source>View → Words shows no encoder states: they belong to the model&apos;s tokens</source>
        <translation>보기 → 단어에서는 인코더 상태가 보이지 않습니다: 인코더 상태는 모델의 토큰에 속합니다</translation>
    </message>
    <message>
        <source>Carry the model: type sentences and decode in the browser (a live page; about a minute)</source>
        <translation>모델 포함: 브라우저에서 문장을 입력하고 디코딩 (라이브 페이지, 약 1분 소요)</translation>
    </message>
    <message>
        <source>The model&apos;s own encode and step run in the page (ONNX Runtime Web); the runtime and the model go in the folder alignscope-live beside the page. Needs Debian&apos;s python3-torch, python3-onnx and nodejs.</source>
        <translation>모델 자체의 encode 와 step 이 페이지 안에서 실행됩니다 (ONNX Runtime Web). 런타임과 모델은 페이지 옆의 alignscope-live 폴더에 들어갑니다. Debian 의 python3-torch, python3-onnx, nodejs 가 필요합니다.</translation>
    </message>
    <message>
        <source>Making the live page: exporting the model and checking it in the browser&apos;s runtime…</source>
        <translation>라이브 페이지를 만드는 중: 모델을 내보내고 브라우저 런타임에서 확인하는 중…</translation>
    </message>
</context>
<context>
    <name>FigureOptions</name>
    <message>
        <source>English</source>
        <translation>영어</translation>
    </message>
    <message>
        <source>French</source>
        <translation>프랑스어</translation>
    </message>
    <message>
        <source>German</source>
        <translation>독일어</translation>
    </message>
    <message>
        <source>Korean</source>
        <translation>한국어</translation>
    </message>
</context>
<context>
    <name>LessonLanguage</name>
    <message>
        <source>in English: no %1 version</source>
        <translation>영어로 표시: %1 버전 없음</translation>
    </message>
</context>
<context>
    <name>LessonPanel</name>
    <message>
        <source>Click to see the picture full size</source>
        <translation>클릭하면 그림을 원래 크기로 봅니다</translation>
    </message>
    <message>
        <source>◀ Previous</source>
        <translation>◀ 이전</translation>
    </message>
    <message>
        <source>Next ▶</source>
        <translation>다음 ▶</translation>
    </message>
    <message>
        <source>Previous page (Page Up)</source>
        <translation>이전 페이지 (Page Up)</translation>
    </message>
    <message>
        <source>Next page (Page Down)</source>
        <translation>다음 페이지 (Page Down)</translation>
    </message>
    <message>
        <source>No lesson</source>
        <translation>강의 없음</translation>
    </message>
    <message>
        <source>Choose one from the Lessons menu.</source>
        <translation>강의 메뉴에서 하나를 고르세요.</translation>
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
        <translation>디코딩 중…</translation>
    </message>
    <message>
        <source>&amp;Open model…</source>
        <translation>모델 열기(&amp;O)…</translation>
    </message>
    <message>
        <source>Open a model file</source>
        <translation>모델 파일 열기</translation>
    </message>
    <message>
        <source>&amp;Step →</source>
        <translation>단계(&amp;S) →</translation>
    </message>
    <message>
        <source>Decode one more token</source>
        <translation>토큰 하나 더 디코딩</translation>
    </message>
    <message>
        <source>← &amp;Back</source>
        <translation>← 뒤로(&amp;B)</translation>
    </message>
    <message>
        <source>Undo the last step</source>
        <translation>마지막 단계 되돌리기</translation>
    </message>
    <message>
        <source>&amp;Run to end</source>
        <translation>끝까지 실행(&amp;R)</translation>
    </message>
    <message>
        <source>Decode until &lt;/s&gt;</source>
        <translation>&lt;/s&gt;까지 디코딩</translation>
    </message>
    <message>
        <source>R&amp;eset</source>
        <translation>처음으로(&amp;E)</translation>
    </message>
    <message>
        <source>Back to the first step</source>
        <translation>첫 단계로 돌아가기</translation>
    </message>
    <message>
        <source>Bea&amp;m search</source>
        <translation>빔 탐색(&amp;M)</translation>
    </message>
    <message>
        <source>Run beam search and list every hypothesis</source>
        <translation>빔 탐색을 실행하고 모든 가설 나열</translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation>취소(&amp;C)</translation>
    </message>
    <message>
        <source>Stop a running search</source>
        <translation>실행 중인 탐색 멈추기</translation>
    </message>
    <message>
        <source>Translate as you t&amp;ype</source>
        <translation>입력하면서 번역(&amp;Y)</translation>
    </message>
    <message>
        <source>Decode the whole sentence after each edit</source>
        <translation>고칠 때마다 문장 전체를 디코딩</translation>
    </message>
    <message>
        <source>&amp;Teacher forcing</source>
        <translation>교사 강요(&amp;T)</translation>
    </message>
    <message>
        <source>Type a target too and see the alignment the model gives that pair</source>
        <translation>목표도 입력하고 모델이 그 문장 쌍에 주는 정렬 보기</translation>
    </message>
    <message>
        <source>Show &amp;encoder states</source>
        <translation>인코더 상태 보기(&amp;E)</translation>
    </message>
    <message>
        <source>Show &amp;values in cells</source>
        <translation>셀에 값 보기(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Grey-scale colours</source>
        <translation>회색조 색(&amp;G)</translation>
    </message>
    <message>
        <source>&amp;Words (merge sub-word pieces)</source>
        <translation>단어(&amp;W) (서브워드 조각 합치기)</translation>
    </message>
    <message>
        <source>The heatmap over the words of the text: a source word&apos;s piece columns summed, a target word&apos;s piece rows averaged (the encoder panel, one column per piece, is left out)</source>
        <translation>텍스트의 단어 단위 히트맵: 원문 단어의 조각 열은 더하고, 목표 단어의 조각 행은 평균 (조각마다 한 열인 인코더 패널은 빠짐)</translation>
    </message>
    <message>
        <source>&amp;Keep the &lt;/s&gt; column</source>
        <translation>&lt;/s&gt; 열 유지(&amp;K)</translation>
    </message>
    <message>
        <source>Hi&amp;de the &lt;/s&gt; column</source>
        <translation>&lt;/s&gt; 열 숨기기(&amp;D)</translation>
    </message>
    <message>
        <source>Hide &lt;/s&gt; and re&amp;normalise rows</source>
        <translation>&lt;/s&gt; 숨기고 행 다시 정규화(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Export…</source>
        <translation>내보내기(&amp;E)…</translation>
    </message>
    <message>
        <source>Export the alignment as PNG, SVG, PDF, CSV, JSON or Pharaoh links</source>
        <translation>정렬을 PNG, SVG, PDF, CSV, JSON 또는 Pharaoh 연결로 내보내기</translation>
    </message>
    <message>
        <source>Choose candidate %1</source>
        <translation>%1번 후보 선택</translation>
    </message>
    <message>
        <source>Open &amp;training run…</source>
        <translation>학습 실행 열기(&amp;T)…</translation>
    </message>
    <message>
        <source>Open a training run&apos;s snapshots</source>
        <translation>학습 실행의 스냅숏 열기</translation>
    </message>
    <message>
        <source>&amp;Compare with…</source>
        <translation>다른 모델과 비교(&amp;C)…</translation>
    </message>
    <message>
        <source>Decode the sentence with a second model beside this one</source>
        <translation>이 모델 옆에서 두 번째 모델로 문장 디코딩</translation>
    </message>
    <message>
        <source>Compare on a test set…</source>
        <translation>테스트 세트로 비교…</translation>
    </message>
    <message>
        <source>Both models&apos; BLEU on a test file</source>
        <translation>테스트 파일에서 두 모델의 BLEU</translation>
    </message>
    <message>
        <source>Stop comparing</source>
        <translation>비교 그만하기</translation>
    </message>
    <message>
        <source>Close the second model</source>
        <translation>두 번째 모델 닫기</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>끝내기(&amp;Q)</translation>
    </message>
    <message>
        <source>Quit AlignScope</source>
        <translation>AlignScope 끝내기</translation>
    </message>
    <message>
        <source>&amp;Next page</source>
        <translation>다음 페이지(&amp;N)</translation>
    </message>
    <message>
        <source>The lesson&apos;s next page</source>
        <translation>강의의 다음 페이지</translation>
    </message>
    <message>
        <source>&amp;Previous page</source>
        <translation>이전 페이지(&amp;P)</translation>
    </message>
    <message>
        <source>The lesson&apos;s previous page</source>
        <translation>강의의 이전 페이지</translation>
    </message>
    <message>
        <source>Presenter &amp;mode</source>
        <translation>발표자 모드(&amp;M)</translation>
    </message>
    <message>
        <source>Large text, the whole screen, the panels in one column</source>
        <translation>큰 글자, 전체 화면, 패널을 한 열로</translation>
    </message>
    <message>
        <source>Show the page&apos;s p&amp;icture full size</source>
        <translation>페이지 그림을 원래 크기로(&amp;I)</translation>
    </message>
    <message>
        <source>The lesson page&apos;s picture, fitted to the screen</source>
        <translation>강의 페이지의 그림을 화면에 맞춰 보기</translation>
    </message>
    <message>
        <source>&amp;Keys…</source>
        <translation>키(&amp;K)…</translation>
    </message>
    <message>
        <source>Every key and what it does</source>
        <translation>모든 키와 그 기능</translation>
    </message>
    <message>
        <source>&amp;End lesson</source>
        <translation>강의 끝내기(&amp;E)</translation>
    </message>
    <message>
        <source>Back to the view before the lesson</source>
        <translation>강의 전의 보기로 돌아가기</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>파일(&amp;F)</translation>
    </message>
    <message>
        <source>Open &amp;recent</source>
        <translation>최근 파일 열기(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Decode</source>
        <translation>디코딩(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Lessons</source>
        <translation>강의(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>보기(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Beam hypotheses</source>
        <translation>빔 가설(&amp;B)</translation>
    </message>
    <message>
        <source>Step e&amp;xplained</source>
        <translation>단계 설명(&amp;X)</translation>
    </message>
    <message>
        <source>&amp;Lesson</source>
        <translation>강의(&amp;L)</translation>
    </message>
    <message>
        <source>T&amp;raining run</source>
        <translation>학습 실행(&amp;R)</translation>
    </message>
    <message>
        <source>Com&amp;pare models</source>
        <translation>모델 비교(&amp;P)</translation>
    </message>
    <message>
        <source>Pict&amp;ure</source>
        <translation>그림(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Heatmap</source>
        <translation>히트맵(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Attention weights</source>
        <translation>어텐션 가중치(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Gradient × input</source>
        <translation>기울기 × 입력(&amp;G)</translation>
    </message>
    <message>
        <source>&amp;Integrated gradients</source>
        <translation>적분 기울기(&amp;I)</translation>
    </message>
    <message>
        <source>&amp;Occlusion</source>
        <translation>가림(&amp;O)</translation>
    </message>
    <message>
        <source>Attention × o&amp;cclusion (where they agree)</source>
        <translation>어텐션 × 가림(&amp;C) (둘이 일치하는 곳)</translation>
    </message>
    <message>
        <source>L&amp;inks</source>
        <translation>연결(&amp;I)</translation>
    </message>
    <message>
        <source>&amp;None</source>
        <translation>없음(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Argmax (each target word&apos;s peak)</source>
        <translation>Argmax(&amp;A) (목표 단어마다 최댓값)</translation>
    </message>
    <message>
        <source>Argmax, &lt;/s&gt; &amp;skipped (each target word&apos;s peak among the source words)</source>
        <translation>Argmax, &lt;/s&gt; 건너뜀(&amp;S) (목표 단어마다 원문 단어 중 최댓값)</translation>
    </message>
    <message>
        <source>&amp;Itermax (mutual peaks)</source>
        <translation>Itermax(&amp;I) (서로 최댓값)</translation>
    </message>
    <message>
        <source>A&amp;greement with the reverse model</source>
        <translation>역방향 모델과 일치(&amp;G)</translation>
    </message>
    <message>
        <source>Agreement, grow-diag-&amp;final-and</source>
        <translation>일치, grow-diag-final-and(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;System language</source>
        <translation>시스템 언어(&amp;S)</translation>
    </message>
    <message>
        <source>L&amp;anguage</source>
        <translation>언어(&amp;A)</translation>
    </message>
    <message>
        <source>AlignScope speaks %1.</source>
        <translation>AlignScope가 %1(으)로 표시됩니다.</translation>
    </message>
    <message>
        <source>AlignScope speaks %1 from its next start.</source>
        <translation>다음에 시작할 때부터 AlignScope가 %1(으)로 표시됩니다.</translation>
    </message>
    <message>
        <source>Decoding toolbar</source>
        <translation>디코딩 도구 모음</translation>
    </message>
    <message>
        <source>Beam search toolbar</source>
        <translation>빔 탐색 도구 모음</translation>
    </message>
    <message>
        <source> beam width </source>
        <translation> 빔 너비 </translation>
    </message>
    <message>
        <source>Modes and export toolbar</source>
        <translation>모드와 내보내기 도구 모음</translation>
    </message>
    <message>
        <source>Dec&amp;oding toolbar</source>
        <translation>디코딩 도구 모음(&amp;O)</translation>
    </message>
    <message>
        <source>Beam &amp;search toolbar</source>
        <translation>빔 탐색 도구 모음(&amp;S)</translation>
    </message>
    <message>
        <source>Modes and export &amp;toolbar</source>
        <translation>모드와 내보내기 도구 모음(&amp;T)</translation>
    </message>
    <message>
        <source>Candidates</source>
        <translation>후보</translation>
    </message>
    <message>
        <source>Beam hypotheses</source>
        <translation>빔 가설</translation>
    </message>
    <message>
        <source>Step explained</source>
        <translation>단계 설명</translation>
    </message>
    <message>
        <source>Lesson</source>
        <translation>강의</translation>
    </message>
    <message>
        <source>Training run</source>
        <translation>학습 실행</translation>
    </message>
    <message>
        <source>Picture</source>
        <translation>그림</translation>
    </message>
    <message>
        <source>Compare models</source>
        <translation>모델 비교</translation>
    </message>
    <message>
        <source>Beam width</source>
        <translation>빔 너비</translation>
    </message>
    <message>
        <source>exported %1</source>
        <translation>%1 내보냄</translation>
    </message>
    <message>
        <source>Open model</source>
        <translation>모델 열기</translation>
    </message>
    <message>
        <source>AlignScope models (*.pt);;All files (*)</source>
        <translation>AlignScope 모델 (*.pt);;모든 파일 (*)</translation>
    </message>
    <message>
        <source>Open a second model first (File → Compare with…)</source>
        <translation>먼저 두 번째 모델을 여세요 (파일 → 다른 모델과 비교…)</translation>
    </message>
    <message>
        <source>Compare with model</source>
        <translation>비교할 모델</translation>
    </message>
    <message>
        <source>Models (*.pt);;All files (*)</source>
        <translation>모델 (*.pt);;모든 파일 (*)</translation>
    </message>
    <message>
        <source>Test pairs (source&lt;TAB&gt;target per line)</source>
        <translation>테스트 문장 쌍 (한 줄에 원문&lt;TAB&gt;목표)</translation>
    </message>
    <message>
        <source>Text (*.tsv *.txt);;All files (*)</source>
        <translation>텍스트 (*.tsv *.txt);;모든 파일 (*)</translation>
    </message>
    <message>
        <source>Gold word links for AER (optional: Cancel for BLEU only)</source>
        <translation>AER용 정답 단어 연결 (선택: BLEU만 보려면 취소)</translation>
    </message>
    <message>
        <source>Links (*.txt *.links);;All files (*)</source>
        <translation>연결 (*.txt *.links);;모든 파일 (*)</translation>
    </message>
    <message>
        <source>Open training run (a folder written by train --snapshots)</source>
        <translation>학습 실행 열기 (train --snapshots가 쓴 폴더)</translation>
    </message>
    <message>
        <source>Type a sentence first: the animation shows it through every snapshot</source>
        <translation>먼저 문장을 입력하세요: 애니메이션은 그 문장을 모든 스냅숏에 걸쳐 보여 줍니다</translation>
    </message>
    <message>
        <source>Choose that candidate</source>
        <translation>그 후보 선택</translation>
    </message>
    <message>
        <source>Leave presenter mode</source>
        <translation>발표자 모드 나가기</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>키</translation>
    </message>
    <message>
        <source>&amp;Candidates</source>
        <translation>후보(&amp;C)</translation>
    </message>
</context>
<context>
    <name>PicturePanel</name>
    <message>
        <source>Click to see the picture full size (Ctrl+I)</source>
        <translation>클릭하면 그림을 원래 크기로 봅니다 (Ctrl+I)</translation>
    </message>
</context>
<context>
    <name>QMenu</name>
    <message>
        <source>&amp;Open lesson file…</source>
        <translation>강의 파일 열기(&amp;O)…</translation>
    </message>
    <message>
        <source>Open lesson</source>
        <translation>강의 열기</translation>
    </message>
    <message>
        <source>Lessons (*.json)</source>
        <translation>강의 (*.json)</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>PNG image (*.png)</source>
        <translation>PNG 이미지 (*.png)</translation>
    </message>
    <message>
        <source>SVG vector image (*.svg)</source>
        <translation>SVG 벡터 이미지 (*.svg)</translation>
    </message>
    <message>
        <source>PDF document (*.pdf)</source>
        <translation>PDF 문서 (*.pdf)</translation>
    </message>
    <message>
        <source>CSV matrix (*.csv)</source>
        <translation>CSV 행렬 (*.csv)</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <source>Pharaoh links (*.align)</source>
        <translation>Pharaoh 연결 (*.align)</translation>
    </message>
    <message>
        <source>Animated GIF (*.gif)</source>
        <translation>애니메이션 GIF (*.gif)</translation>
    </message>
    <message>
        <source>PNG frames, NAME-stepKK.png (*.png)</source>
        <translation>PNG 프레임, NAME-stepKK.png (*.png)</translation>
    </message>
    <message>
        <source>Interactive web page (*.html)</source>
        <translation>대화형 웹 페이지 (*.html)</translation>
    </message>
</context>
<context>
    <name>SentencePanel</name>
    <message>
        <source>Type a source sentence and press Enter</source>
        <translation>원문 문장을 입력하고 Enter를 누르세요</translation>
    </message>
    <message>
        <source>Target sentence for teacher forcing</source>
        <translation>교사 강요에 쓸 목표 문장</translation>
    </message>
    <message>
        <source>The source as the model sees it; unknown words are marked</source>
        <translation>모델이 보는 그대로의 원문; 모르는 단어는 표시됨</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>원문</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>토큰</translation>
    </message>
    <message>
        <source>Target</source>
        <translation>목표</translation>
    </message>
    <message>
        <source>Translation</source>
        <translation>번역</translation>
    </message>
    <message>
        <source>unknown to the model</source>
        <translation>모델이 모르는 단어</translation>
    </message>
</context>
<context>
    <name>StatusLine</name>
    <message>
        <source>no model</source>
        <translation>모델 없음</translation>
    </message>
    <message>
        <source>%1 · %2 source tokens · beam hypothesis %3 of %4, %5 tokens</source>
        <translation>%1 · 원문 토큰 %2개 · 빔 가설 %4개 중 %3번째, 토큰 %5개</translation>
    </message>
    <message>
        <source>Teacher forcing: type the target sentence in Target and press Enter</source>
        <translation>교사 강요: 목표 칸에 목표 문장을 입력하고 Enter를 누르세요</translation>
    </message>
    <message>
        <source>%1 · %2 source tokens · teacher forcing, step %3 of %4</source>
        <translation>%1 · 원문 토큰 %2개 · 교사 강요, %4단계 중 %3단계</translation>
    </message>
    <message>
        <source>%1 · %2 source tokens · step %3%4</source>
        <translation>%1 · 원문 토큰 %2개 · %3단계%4</translation>
    </message>
    <message>
        <source> · finished</source>
        <translation> · 끝남</translation>
    </message>
    <message>
        <source> · %1 links (%2)</source>
        <translation> · 연결 %1개 (%2)</translation>
    </message>
    <message>
        <source> · no links: %1</source>
        <translation> · 연결 없음: %1</translation>
    </message>
</context>
<context>
    <name>StepExplainedPanel</name>
    <message>
        <source>&lt;b&gt;Press Step&lt;/b&gt; to see one decoding step explained with this model&apos;s numbers.</source>
        <translation>&lt;b&gt;단계를 누르면&lt;/b&gt; 이 모델의 실제 수치로 디코딩 한 단계를 설명합니다.</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1. Query&lt;/b&gt;: the new decoder state s&lt;sub&gt;%2&lt;/sub&gt; (%3 numbers, length %4): this model attends after its recurrent cell.</source>
        <translation>&lt;b&gt;%1. 쿼리&lt;/b&gt;: 새 디코더 상태 s&lt;sub&gt;%2&lt;/sub&gt; (수 %3개, 길이 %4): 이 모델은 순환 셀을 거친 뒤에 어텐션을 합니다.</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1. Query&lt;/b&gt;: s&apos;&lt;sub&gt;%2&lt;/sub&gt; = %3(s&lt;sub&gt;%4&lt;/sub&gt;, emb(&lt;i&gt;%5&lt;/i&gt;)), the previous state (length %6) after a first cell has read the word just written: this model knows “&lt;i&gt;%5&lt;/i&gt;” before it looks.</source>
        <translation>&lt;b&gt;%1. 쿼리&lt;/b&gt;: s&apos;&lt;sub&gt;%2&lt;/sub&gt; = %3(s&lt;sub&gt;%4&lt;/sub&gt;, emb(&lt;i&gt;%5&lt;/i&gt;)), 첫 번째 셀이 방금 쓴 단어를 읽은 뒤의 이전 상태 (길이 %6): 이 모델은 보기 전에 이미 “&lt;i&gt;%5&lt;/i&gt;”를 압니다.</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1. Query&lt;/b&gt;: the previous decoder state s&lt;sub&gt;%2&lt;/sub&gt; (%3 numbers, length %4).</source>
        <translation>&lt;b&gt;%1. 쿼리&lt;/b&gt;: 이전 디코더 상태 s&lt;sub&gt;%2&lt;/sub&gt; (수 %3개, 길이 %4).</translation>
    </message>
    <message>
        <source> Projected: W %1 has length %2.</source>
        <translation> 투영: W %1의 길이는 %2입니다.</translation>
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
        <translation>e&lt;sub&gt;t,i&lt;/sub&gt; = MLP([h&lt;sub&gt;i&lt;/sub&gt;; %1]), 두 벡터 쌍에 대한 작은 신경망</translation>
    </message>
    <message>
        <source>e&lt;sub&gt;t,i&lt;/sub&gt; = v&lt;sup&gt;T&lt;/sup&gt; tanh(W %1 + U h&lt;sub&gt;i&lt;/sub&gt;)</source>
        <translation>e&lt;sub&gt;t,i&lt;/sub&gt; = v&lt;sup&gt;T&lt;/sup&gt; tanh(W %1 + U h&lt;sub&gt;i&lt;/sub&gt;)</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1. Energies&lt;/b&gt;: this model has no attention; every step uses the same context, the encoder&apos;s final state.</source>
        <translation>&lt;b&gt;%1. 에너지&lt;/b&gt;: 이 모델에는 어텐션이 없습니다. 모든 단계가 같은 문맥, 곧 인코더의 마지막 상태를 씁니다.</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1. Energies&lt;/b&gt; %2: this model does not report its energies.</source>
        <translation>&lt;b&gt;%1. 에너지&lt;/b&gt; %2: 이 모델은 에너지 값을 알려 주지 않습니다.</translation>
    </message>
    <message>
        <source>&lt;b&gt;%5. Energies&lt;/b&gt; %1, one per source token: e&lt;sub&gt;%2,%3&lt;/sub&gt; = %4 is the largest.</source>
        <translation>&lt;b&gt;%5. 에너지&lt;/b&gt; %1, 원문 토큰마다 하나: e&lt;sub&gt;%2,%3&lt;/sub&gt; = %4가 가장 큽니다.</translation>
    </message>
    <message>
        <source>&lt;b&gt;%2. Softmax&lt;/b&gt;: not used; alpha is shown uniform (1/%1 each) only as a placeholder.</source>
        <translation>&lt;b&gt;%2. 소프트맥스&lt;/b&gt;: 쓰이지 않음. alpha는 자리를 채우려고 균등하게(각 1/%1) 보여 줄 뿐입니다.</translation>
    </message>
    <message>
        <source>&lt;b&gt;%6. Softmax&lt;/b&gt;: alpha&lt;sub&gt;t,i&lt;/sub&gt; = exp(e&lt;sub&gt;t,i&lt;/sub&gt;) / &amp;Sigma;&lt;sub&gt;j&lt;/sub&gt; exp(e&lt;sub&gt;t,j&lt;/sub&gt;). For &lt;i&gt;%1&lt;/i&gt;: exp(%2) / %3 = &lt;b&gt;%4&lt;/b&gt;. The weights sum to %5.</source>
        <translation>&lt;b&gt;%6. 소프트맥스&lt;/b&gt;: alpha&lt;sub&gt;t,i&lt;/sub&gt; = exp(e&lt;sub&gt;t,i&lt;/sub&gt;) / &amp;Sigma;&lt;sub&gt;j&lt;/sub&gt; exp(e&lt;sub&gt;t,j&lt;/sub&gt;). &lt;i&gt;%1&lt;/i&gt;의 경우: exp(%2) / %3 = &lt;b&gt;%4&lt;/b&gt;. 가중치의 합은 %5입니다.</translation>
    </message>
    <message>
        <source>&lt;b&gt;%4. Softmax&lt;/b&gt;: alpha&lt;sub&gt;t,%1&lt;/sub&gt; = &lt;b&gt;%2&lt;/b&gt; is the largest weight; the weights sum to %3.%5</source>
        <translation>&lt;b&gt;%4. 소프트맥스&lt;/b&gt;: alpha&lt;sub&gt;t,%1&lt;/sub&gt; = &lt;b&gt;%2&lt;/b&gt;가 가장 큰 가중치이고, 가중치의 합은 %3입니다.%5</translation>
    </message>
    <message>
        <source> The model&apos;s softmax also covers its own padding positions: their share is the &lt;i&gt;&amp;lt;padding&amp;gt;&lt;/i&gt; column, %1.</source>
        <translation> 이 모델의 소프트맥스는 자신의 패딩 위치도 포함합니다: 그 몫이 &lt;i&gt;&amp;lt;padding&amp;gt;&lt;/i&gt; 열, %1입니다.</translation>
    </message>
    <message>
        <source>&lt;b&gt;%2. Context&lt;/b&gt;: c = the encoder&apos;s final state, the same at every step (length %1).</source>
        <translation>&lt;b&gt;%2. 문맥&lt;/b&gt;: c = 인코더의 마지막 상태, 모든 단계에서 같음 (길이 %1).</translation>
    </message>
    <message>
        <source>&lt;b&gt;%6. Context&lt;/b&gt;: c&lt;sub&gt;%1&lt;/sub&gt; = &amp;Sigma;&lt;sub&gt;i&lt;/sub&gt; alpha&lt;sub&gt;%1,i&lt;/sub&gt; h&lt;sub&gt;i&lt;/sub&gt; = %2%3 (%4 numbers, length %5; the c_t column beside the encoder states).</source>
        <translation>&lt;b&gt;%6. 문맥&lt;/b&gt;: c&lt;sub&gt;%1&lt;/sub&gt; = &amp;Sigma;&lt;sub&gt;i&lt;/sub&gt; alpha&lt;sub&gt;%1,i&lt;/sub&gt; h&lt;sub&gt;i&lt;/sub&gt; = %2%3 (수 %4개, 길이 %5; 인코더 상태 옆의 c_t 열).</translation>
    </message>
    <message>
        <source>&lt;b&gt;1. Decoder update&lt;/b&gt; (%1), before any attention: s&lt;sub&gt;%2&lt;/sub&gt; = %1(s&lt;sub&gt;%3&lt;/sub&gt;, [emb(&lt;i&gt;%4&lt;/i&gt;)%5]): the state moves by %6 (length %7 → %8).</source>
        <translation>&lt;b&gt;1. 디코더 갱신&lt;/b&gt; (%1), 어텐션보다 먼저: s&lt;sub&gt;%2&lt;/sub&gt; = %1(s&lt;sub&gt;%3&lt;/sub&gt;, [emb(&lt;i&gt;%4&lt;/i&gt;)%5]): 상태가 %6만큼 움직입니다 (길이 %7 → %8).</translation>
    </message>
    <message>
        <source>; the previous step&apos;s attentional output</source>
        <translation>; 이전 단계의 어텐션 출력</translation>
    </message>
    <message>
        <source>&lt;b&gt;5. Decoder update&lt;/b&gt; (%1, a second cell): s&lt;sub&gt;%2&lt;/sub&gt; = %1(s&apos;&lt;sub&gt;%2&lt;/sub&gt;, c&lt;sub&gt;%2&lt;/sub&gt;): from s&lt;sub&gt;%3&lt;/sub&gt; the state moves by %4 (length %5 → %6).</source>
        <translation>&lt;b&gt;5. 디코더 갱신&lt;/b&gt; (%1, 두 번째 셀): s&lt;sub&gt;%2&lt;/sub&gt; = %1(s&apos;&lt;sub&gt;%2&lt;/sub&gt;, c&lt;sub&gt;%2&lt;/sub&gt;): s&lt;sub&gt;%3&lt;/sub&gt;에서 상태가 %4만큼 움직입니다 (길이 %5 → %6).</translation>
    </message>
    <message>
        <source>&lt;b&gt;5. Decoder update&lt;/b&gt; (%1): s&lt;sub&gt;%2&lt;/sub&gt; = %1(s&lt;sub&gt;%3&lt;/sub&gt;, [emb(&lt;i&gt;%4&lt;/i&gt;); c&lt;sub&gt;%2&lt;/sub&gt;]): the state moves by %5 (length %6 → %7).</source>
        <translation>&lt;b&gt;5. 디코더 갱신&lt;/b&gt; (%1): s&lt;sub&gt;%2&lt;/sub&gt; = %1(s&lt;sub&gt;%3&lt;/sub&gt;, [emb(&lt;i&gt;%4&lt;/i&gt;); c&lt;sub&gt;%2&lt;/sub&gt;]): 상태가 %5만큼 움직입니다 (길이 %6 → %7).</translation>
    </message>
    <message>
        <source>[s&lt;sub&gt;%1&lt;/sub&gt;; c&lt;sub&gt;%1&lt;/sub&gt;; emb(&lt;i&gt;%2&lt;/i&gt;)]</source>
        <translation>[s&lt;sub&gt;%1&lt;/sub&gt;; c&lt;sub&gt;%1&lt;/sub&gt;; emb(&lt;i&gt;%2&lt;/i&gt;)]</translation>
    </message>
    <message>
        <source>s&lt;sub&gt;%1&lt;/sub&gt; and c&lt;sub&gt;%1&lt;/sub&gt;</source>
        <translation>s&lt;sub&gt;%1&lt;/sub&gt;와 c&lt;sub&gt;%1&lt;/sub&gt;</translation>
    </message>
    <message>
        <source>the new state s&lt;sub&gt;%1&lt;/sub&gt;</source>
        <translation>새 상태 s&lt;sub&gt;%1&lt;/sub&gt;</translation>
    </message>
    <message>
        <source> A byte piece: one UTF-8 byte (0x%1) of a character the vocabulary spells byte by byte.</source>
        <translation> 바이트 조각: 어휘가 바이트 단위로 적는 문자의 UTF-8 바이트 하나(0x%1).</translation>
    </message>
    <message>
        <source> A piece that starts a new word (its ▁ is the space before it).</source>
        <translation> 새 단어를 시작하는 조각 (▁는 그 앞의 공백).</translation>
    </message>
    <message>
        <source> A piece that continues the word before it (no ▁).</source>
        <translation> 앞 단어를 이어 가는 조각 (▁ 없음).</translation>
    </message>
    <message>
        <source>&lt;b&gt;6. Output&lt;/b&gt;: a softmax over the whole target vocabulary from %1 (top %3 shown). %4 &lt;i&gt;%5&lt;/i&gt;, p = &lt;b&gt;%6&lt;/b&gt;.%7</source>
        <translation>&lt;b&gt;6. 출력&lt;/b&gt;: %1에서 목표 어휘 전체에 대한 소프트맥스 (상위 %3개 표시). %4 &lt;i&gt;%5&lt;/i&gt;, p = &lt;b&gt;%6&lt;/b&gt;.%7</translation>
    </message>
    <message>
        <source>Beam search kept:</source>
        <translation>빔 탐색이 남긴 것:</translation>
    </message>
    <message>
        <source>Forced:</source>
        <translation>강제됨:</translation>
    </message>
    <message>
        <source>Chosen:</source>
        <translation>선택됨:</translation>
    </message>
    <message>
        <source>&lt;b&gt;Attribution&lt;/b&gt; (%1): %2&lt;br&gt;&lt;i&gt;%3&lt;/i&gt;</source>
        <translation>&lt;b&gt;기여도&lt;/b&gt; (%1): %2&lt;br&gt;&lt;i&gt;%3&lt;/i&gt;</translation>
    </message>
    <message>
        <source>the same top source token (&lt;i&gt;%1&lt;/i&gt;)</source>
        <translation>가장 큰 원문 토큰이 같음 (&lt;i&gt;%1&lt;/i&gt;)</translation>
    </message>
    <message>
        <source>different top source tokens: attention &lt;i&gt;%1&lt;/i&gt;, %2 &lt;i&gt;%3&lt;/i&gt;</source>
        <translation>가장 큰 원문 토큰이 다름: 어텐션은 &lt;i&gt;%1&lt;/i&gt;, %2은(는) &lt;i&gt;%3&lt;/i&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;Attribution&lt;/b&gt; (%1, shown in the heatmap): %2&lt;br&gt;Against this step&apos;s attention: rank correlation &amp;rho; = &lt;b&gt;%3&lt;/b&gt;, %4, Jensen–Shannon divergence &lt;b&gt;%5&lt;/b&gt; (0: the same distribution, 1: nothing in common; the attribution&apos;s magnitudes as a distribution).</source>
        <translation>&lt;b&gt;기여도&lt;/b&gt; (%1, 히트맵에 표시): %2&lt;br&gt;이 단계의 어텐션과 비교: 순위 상관 &amp;rho; = &lt;b&gt;%3&lt;/b&gt;, %4, 젠슨-섀넌 발산 &lt;b&gt;%5&lt;/b&gt; (0: 같은 분포, 1: 공통점 없음; 기여도의 크기를 분포로 봄).</translation>
    </message>
    <message>
        <source>computing…</source>
        <translation>계산 중…</translation>
    </message>
</context>
<context>
    <name>TimelinePanel</name>
    <message>
        <source>Export animation…</source>
        <translation>애니메이션 내보내기…</translation>
    </message>
    <message>
        <source>The sentence through every snapshot, as an animated GIF or numbered PNG frames</source>
        <translation>모든 스냅숏에 걸친 문장을 애니메이션 GIF나 번호 붙은 PNG 프레임으로</translation>
    </message>
    <message>
        <source>update (log scale)</source>
        <translation>갱신 횟수 (로그 척도)</translation>
    </message>
    <message>
        <source>loss (NLL/token)</source>
        <translation>손실 (NLL/토큰)</translation>
    </message>
    <message>
        <source>The heatmap is this snapshot&apos;s alignment of the sentence, forced along one target.</source>
        <translation>히트맵은 이 스냅숏이 문장을 한 목표에 강제하여 얻은 정렬입니다.</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: snapshot %2 of %3, after update %4 of %5 (training loss %6)</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;: 스냅숏 %3개 중 %2번째, 갱신 %5회 중 %4회 뒤 (학습 손실 %6)</translation>
    </message>
</context>
<context>
    <name>TrainingRunController</name>
    <message>
        <source>&apos;%1&apos; reads other vocabularies than &apos;%2&apos;: the snapshots of one run share one (does the folder mix two runs?)</source>
        <translation>&apos;%1&apos;은(는) &apos;%2&apos;와 다른 어휘를 읽습니다: 한 실행의 스냅숏은 어휘 하나를 공유합니다 (폴더에 두 실행이 섞였나요?)</translation>
    </message>
</context>
</TS>
