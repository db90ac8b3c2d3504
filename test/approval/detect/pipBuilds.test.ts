/**
 * What pip builds from this machine, read from its command line and from the requirement files and project files it
 * reads (red-team round 3, finding 4): every way a local project is named, not only a path operand. A package from an
 * index is none of it.
 */
import { describe, expect, it } from "@effect/vitest"
import { buildSource, localSource, pipBuild, projectMetadata, requirementLines, requirementPath } from "../../../src/layers/approval/detect/resolve/pipBuilds.js"

const project = (path: string) => ({ kind: "project", path })
const packed = (path: string) => ({ kind: "packed", path })

describe("pip's local sources", () => {
  it("a requirement names a local project by path, bare name, file: URL, PEP 508 `@ file:`, or a packed one", () => {
    const cases: ReadonlyArray<readonly [string, unknown]> = [
      [".", project(".")],
      ["./pkg/", project("./pkg")],
      ["pkg", project("pkg")],
      ["pkg[dev,test]", project("pkg")],
      ["file:///srv/a%20b/pkg", project("/srv/a b/pkg")],
      ["file://localhost/srv/pkg", project("/srv/pkg")],
      ["file:pkg", project("pkg")],
      ["file:./repo#egg=pkg&subdirectory=py", project("./repo/py")],
      ["pkg @ file:///srv/pkg ; python_version >= '3.8'", project("/srv/pkg")],
      ["pkg[x]@file:./pkg", project("./pkg")],
      ["./dist/pkg-1.0.tar.gz", packed("./dist/pkg-1.0.tar.gz")],
      ["pkg.zip", packed("pkg.zip")],
      ["git+file:///srv/repo#egg=pkg", packed("/srv/repo")],
      // Remote sources and wheels: installed code, nothing of this machine's is built.
      ["https://example.com/pkg-1.0.tar.gz", null],
      ["git+https://github.com/o/r.git", null],
      ["pkg @ https://example.com/pkg.zip", null],
      ["./dist/pkg-1.0-py3-none-any.whl", null]
    ]
    for (const [spec, source] of cases) expect([spec, localSource(spec)]).toEqual([spec, source])
  })

  it("install, wheel and download (even --dry-run) build; the files -r/-c name are read; other verbs build nothing", () => {
    expect(pipBuild(["install", "-r", "requirements.txt", "requests==2"])).toEqual({ sources: [project("requests==2")], requirements: ["requirements.txt"], computed: [] })
    // An editable's bare name is a path.
    expect(pipBuild(["install", "-e", "pkg", "--editable=other[x]", "-eonemore", "-e", "git+https://h/r.git#egg=r"])?.sources).toEqual([project("./pkg"), project("./other"), project("./onemore")])
    expect(pipBuild(["install", "-Ur", "a.txt", "--requirement=b.txt", "-c", "c.txt", "--constraint", "d.txt", "-ce.txt"])?.requirements).toEqual(["a.txt", "b.txt", "c.txt", "d.txt", "e.txt"])
    expect(pipBuild(["install", "--dry-run", "--target", "tgt", "-i", "https://x/simple", "file:///srv/pkg"])?.sources).toEqual([project("/srv/pkg")])
    expect(pipBuild(["wheel", "-w", "out", "-r", "r.txt"])?.requirements).toEqual(["r.txt"])
    expect(pipBuild(["--isolated", "--python", "/usr/bin/python3", "download", "-d", "dl", "./pkg"])?.sources).toEqual([project("./pkg")])
    for (const args of [["list"], ["freeze"], ["show", "requests"], ["uninstall", "-y", "pkg"], ["--version"], []]) expect(pipBuild(args)).toBeNull()
  })

  it("a local place pip finds packages (--find-links, -f, a file: index) may hold planted sources: read as packed", () => {
    const cases: ReadonlyArray<readonly [ReadonlyArray<string>, unknown]> = [
      [["install", "--no-index", "--find-links", "dist", "--target", "t", "foo"], [project("foo"), packed("dist")]],
      [["install", "-fdist", "foo"], [project("foo"), packed("dist")]],
      [["install", "--find-links=./wheels/", "foo"], [project("foo"), packed("./wheels/")]],
      [["download", "-d", "dl", "--index-url", "file:///srv/simple", "foo"], [project("foo"), packed("/srv/simple")]],
      [["wheel", "--extra-index-url=file:./idx", "foo"], [project("foo"), packed("./idx")]],
      [["install", "-i", "file:idx", "foo"], [project("foo"), packed("idx")]],
      // Remote indexes and link pages: installed code, as any dependency.
      [["install", "-i", "https://pypi.org/simple", "-f", "https://example.com/links", "foo"], [project("foo")]]
    ]
    for (const [args, sources] of cases) expect([args, pipBuild(args)?.sources]).toEqual([args, sources])
    expect(requirementLines("--find-links ./vendor\nfoo\n-i file:///srv/idx\n").sources).toEqual([packed("./vendor"), project("foo"), packed("/srv/idx")])
  })

  it("a requirements file: nested -r/-c, -e lines, URLs, names, continuations, comments, and ${VAR} paths pip expands", () => {
    const text = [
      "# tools",
      "-r base.txt",
      "--constraint=pins.txt",
      "-e ./lib",
      "--editable=pkg",
      "requests>=2 ; python_version >= '3.8'  # http",
      "app @ file:///srv/app \\",
      "    --hash=sha256:abc",
      "./vendor/x-1.0.tar.gz",
      "-i https://example.com/simple",
      "numpy==1.26 --config-settings=a=b"
    ].join("\n")
    expect(requirementLines(text)).toEqual({
      requirements: ["base.txt", "pins.txt"],
      sources: [project("./lib"), project("./pkg"), project("requests>=2"), project("/srv/app"), packed("./vendor/x-1.0.tar.gz"), project("numpy==1.26")],
      computed: []
    })
    expect(requirementLines("${PROJECT}/pkg\n").computed).toEqual(["${PROJECT}/pkg"])
    expect(requirementPath("file:///srv/r.txt")).toBe("/srv/r.txt")
  })

  it("a project's build files: local dependencies, an in-tree backend, setuptools attr: and cmdclass modules", () => {
    const pyproject = [
      "[build-system]",
      "requires = [\"setuptools\", \"helper @ file:///srv/helper\"]",
      "build-backend = \"backend.build\"",
      "backend-path = [\"_build\"]",
      "[project]",
      "dependencies = [\"dep @ {root:uri}/dep\"]"
    ].join("\n")
    expect(projectMetadata(pyproject)).toEqual({ sources: [project("/srv/helper"), project("./dep")], modules: ["backend.build"], moduleDirs: ["_build"] })
    // An installed backend (no backend-path) is not the project's code.
    expect(projectMetadata("[build-system]\nbuild-backend = \"setuptools.build_meta\"\n").modules).toEqual([])
    expect(projectMetadata("[metadata]\nversion = attr: pkg.about.__version__\n[options]\ncmdclass =\n    build_py = pkg.cmds:BuildPy\n")).toEqual({
      sources: [],
      modules: ["pkg.about", "pkg.cmds"],
      moduleDirs: [".", "src"]
    })
    expect(projectMetadata("from setuptools import setup\nsetup(install_requires=['x @ file:///srv/x#egg=x'])\n").sources).toEqual([project("/srv/x")])
  })

  it("python -m build builds the folder it is given, or where it runs", () => {
    expect(buildSource([])).toBe(".")
    expect(buildSource(["--wheel", "-o", "dist", "pkg/"])).toBe("pkg")
  })
})
