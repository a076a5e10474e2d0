"""One importer per format; the admin and ``manage.py import_results`` call the same ones.

- ``egf``: EGF results tables (``.h9``, ``.h2``, …) create an event with its players and games.
- ``games``: ICCF / PlayChess results as lines, grid rows or CSV/XLSX into an existing event.
- ``solving``: a WFCC score sheet (solvers × problems) from the admin sheet or CSV/XLSX.

Each names the results format it reads (``RESULTS_FORMAT``) and each rating system the format
its events take (``System.results_format``, through ``tournaments.ports``): ``handles(system)``
finds the importer of a federation's events without naming a system here.
"""
