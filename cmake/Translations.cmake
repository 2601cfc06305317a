# The app's catalogues (resources/translations/alignscope_LANG.ts, docs/languages.md) compiled to
# .qm by lrelease into the build tree's data folder, where ui/UiLanguage.cpp finds them, and
# installed beside the lessons. lrelease and lupdate come from Debian's qt6-l10n-tools; Qt's CMake
# package for them (qt6-tools-dev) would add Designer, Qt Quick and libclang to the set-up.
set(ALIGNSCOPE_LANGUAGES de fr ko)
find_program(ALIGNSCOPE_LRELEASE NAMES lrelease lrelease-qt6 HINTS /usr/lib/qt6/bin /usr/lib/qt6/libexec)
find_program(ALIGNSCOPE_LUPDATE NAMES lupdate lupdate-qt6 HINTS /usr/lib/qt6/bin /usr/lib/qt6/libexec)
if(NOT ALIGNSCOPE_LRELEASE)
  message(FATAL_ERROR "lrelease not found: install Debian's qt6-l10n-tools (bash scripts/setup.sh does)")
endif()
set(alignscope_translations_dir ${CMAKE_BINARY_DIR}/share/alignscope/translations)
set(alignscope_qm_files)
foreach(language ${ALIGNSCOPE_LANGUAGES})
  set(ts ${PROJECT_SOURCE_DIR}/resources/translations/alignscope_${language}.ts)
  set(qm ${alignscope_translations_dir}/alignscope_${language}.qm)
  add_custom_command(OUTPUT ${qm} COMMAND ${CMAKE_COMMAND} -E make_directory ${alignscope_translations_dir}
                     COMMAND ${ALIGNSCOPE_LRELEASE} -silent ${ts} -qm ${qm} DEPENDS ${ts} VERBATIM)
  list(APPEND alignscope_qm_files ${qm})
endforeach()
add_custom_target(alignscope_translations ALL DEPENDS ${alignscope_qm_files})
install(FILES ${alignscope_qm_files} DESTINATION share/alignscope/translations COMPONENT programs)

# `cmake --build build --target alignscope_lupdate`: the catalogues take the sources' current
# strings (new ones unfinished, which tests/LanguageTest.cpp then refuses; gone ones dropped).
if(ALIGNSCOPE_LUPDATE)
  set(alignscope_ts_files)
  foreach(language ${ALIGNSCOPE_LANGUAGES})
    list(APPEND alignscope_ts_files ${PROJECT_SOURCE_DIR}/resources/translations/alignscope_${language}.ts)
  endforeach()
  add_custom_target(alignscope_lupdate
                    COMMAND ${ALIGNSCOPE_LUPDATE} -silent -locations none -no-obsolete ui app/gui_main.cpp -ts ${alignscope_ts_files}
                    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR} VERBATIM)
endif()
