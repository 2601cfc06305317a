# Install rules and the Debian package. The installed layout is the one core/platform/InstallLayout.h reads,
# relative to the programs, so an install works from any prefix:
#   bin/alignscope, bin/alignscope-cli
#   lib/alignscope/libalignscope_sentencepiece.so    (RPATH $ORIGIN/../lib/alignscope for private libraries)
#   share/alignscope/models, share/alignscope/lessons, share/alignscope/translations (the app's .qm catalogues, cmake/Translations.cmake)
#   share/doc/alignscope/copyright
#   share/applications, share/icons/hicolor/scalable/apps, share/metainfo, share/mime/packages   (the desktop entry, its file types)
#
#   cmake --install build --prefix ~/.local --strip
#   (cd build && cpack)            # build/alignscope_<version>_amd64.deb and alignscope-models_<version>_all.deb
#
# Two components, as Debian separates programs from architecture-independent data: `programs` (the
# programs, the module, the lessons, the desktop entry and the default model, enough to start) is the
# package alignscope; `models` (every other bundled model and training run) is alignscope-models.
# Both install into the one share/alignscope/models folder, where the programs look.

set(alignscope_programs alignscope-cli)
if(ALIGNSCOPE_BUILD_GUI)
  list(APPEND alignscope_programs alignscope)
endif()
set_target_properties(${alignscope_programs} PROPERTIES INSTALL_RPATH "\$ORIGIN/../lib/alignscope")
set(CMAKE_INSTALL_DEFAULT_COMPONENT_NAME programs)
install(TARGETS ${alignscope_programs} RUNTIME DESTINATION bin COMPONENT programs)
install(TARGETS alignscope_sentencepiece LIBRARY DESTINATION lib/alignscope COMPONENT programs)
set(alignscope_default_model en-fr-subword)
install(FILES ${PROJECT_SOURCE_DIR}/models/${alignscope_default_model}.pt ${PROJECT_SOURCE_DIR}/models/${alignscope_default_model}.md
        DESTINATION share/alignscope/models COMPONENT programs)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/models/ DESTINATION share/alignscope/models COMPONENT models
        PATTERN "${alignscope_default_model}.pt" EXCLUDE PATTERN "${alignscope_default_model}.md" EXCLUDE)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/resources/lessons/ DESTINATION share/alignscope/lessons COMPONENT programs)
# The live page (export --live): the Python package that exports a model to ONNX (run as a child
# process: core/platform/LivePageMaker), its web files, and the npm runtime where it was fetched.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/python/alignscope DESTINATION share/alignscope/python COMPONENT programs
        PATTERN "web" EXCLUDE PATTERN "__pycache__" EXCLUDE)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/resources/web/ DESTINATION share/alignscope/python/alignscope/web COMPONENT programs)
install(DIRECTORY ${CMAKE_BINARY_DIR}/onnxruntime-web ${CMAKE_BINARY_DIR}/sentencepiece-js DESTINATION share/alignscope
        COMPONENT programs OPTIONAL)
# Debian policy 12.5: the licences of the code and of the bundled models' data, in both packages.
install(FILES ${PROJECT_SOURCE_DIR}/resources/packaging/copyright DESTINATION share/doc/alignscope COMPONENT programs)
install(FILES ${PROJECT_SOURCE_DIR}/resources/packaging/copyright DESTINATION share/doc/alignscope-models COMPONENT models)

if(ALIGNSCOPE_BUILD_GUI)
  set(desktop ${PROJECT_SOURCE_DIR}/resources/desktop)
  configure_file(${desktop}/${ALIGNSCOPE_APP_ID}.metainfo.xml ${CMAKE_BINARY_DIR}/${ALIGNSCOPE_APP_ID}.metainfo.xml @ONLY)
  install(FILES ${desktop}/${ALIGNSCOPE_APP_ID}.desktop DESTINATION share/applications)
  install(FILES ${desktop}/${ALIGNSCOPE_APP_ID}.mime.xml DESTINATION share/mime/packages RENAME ${ALIGNSCOPE_APP_ID}.xml)
  install(FILES ${desktop}/${ALIGNSCOPE_APP_ID}.svg DESTINATION share/icons/hicolor/scalable/apps)
  install(FILES ${CMAKE_BINARY_DIR}/${ALIGNSCOPE_APP_ID}.metainfo.xml DESTINATION share/metainfo)
endif()

# cpack in the build folder: alignscope_<version>_amd64.deb and alignscope-models_<version>_all.deb for /usr. Its dependencies are Debian's
# runtime packages: dpkg-shlibdeps reads them from the programs and the module (LibTorch, Qt 6,
# QCustomPlot, SentencePiece, ...), and the list below adds what is loaded without being linked.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME alignscope)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR AlignScope)
set(CPACK_PACKAGE_CONTACT "AlignScope developers <alignscope@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "look inside attention-based sequence-to-sequence models")
# The control file's long description, below the summary line.
string(CONCAT CPACK_DEBIAN_PACKAGE_DESCRIPTION
  "AlignScope opens RNN encoder-decoders with attention (TorchScript files) and steps\n"
  "through their decoding one token at a time, with the alignment heatmap, the candidates\n"
  "and the encoder states. It ships with English-French models and step-through lessons.\n"
  "alignscope-cli translates, aligns, evaluates and exports figures from the command line.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)  # no debug information (nor the build's paths in it) in the package
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # alignscope_0.1.0_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# libopenblas0-pthread: LibTorch links libblas.so.3, and reference BLAS is several times slower
# (Runtime::blasDescription says so). The fonts: the figures' text (DejaVu), arrows and symbols
# (Symbola), and Hangul, Kana and Han (Noto CJK: a Korean sentence or token must not draw as boxes). Qt's X11 platform plugin comes with libqt6gui6; qt6-wayland gives a native Wayland window
# (without it Qt runs through XWayland).
set(CPACK_DEBIAN_PROGRAMS_PACKAGE_DEPENDS "libopenblas0-pthread, fonts-dejavu-core, fonts-symbola, fonts-noto-cjk")
# The lessons open models of alignscope-models; without it they say which file is missing.
# qt6-translations-l10n: Qt's own words (a dialog's Cancel, a key's name) in the app's language (docs/languages.md).
set(CPACK_DEBIAN_PROGRAMS_PACKAGE_RECOMMENDS "qt6-wayland, qt6-translations-l10n, alignscope-models (= ${PROJECT_VERSION})")
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL programs models)
set(CPACK_DEBIAN_PROGRAMS_PACKAGE_NAME alignscope)
set(CPACK_DEBIAN_PROGRAMS_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PROGRAMS_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_MODELS_PACKAGE_NAME alignscope-models)
set(CPACK_DEBIAN_MODELS_FILE_NAME DEB-DEFAULT)  # alignscope-models_0.1.0_all.deb
set(CPACK_DEBIAN_MODELS_PACKAGE_ARCHITECTURE all)
set(CPACK_DEBIAN_MODELS_PACKAGE_SHLIBDEPS OFF)
set(CPACK_DEBIAN_MODELS_PACKAGE_SECTION science)
set(CPACK_COMPONENT_MODELS_DESCRIPTION
  "models for AlignScope\nThe bundled models other than the default, with their cards: the English-French\n"
  "models of the lessons and comparisons, English-German and German-English, the reverse models\n"
  "and a training run.\n"
  "Architecture-independent (TorchScript files).")
set(CPACK_COMPONENT_PROGRAMS_DESCRIPTION "${CPACK_PACKAGE_DESCRIPTION_SUMMARY}\n${CPACK_DEBIAN_PACKAGE_DESCRIPTION}")
include(CPack)
